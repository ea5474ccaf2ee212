package dev.crucible.adapters.dataset;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.Executors;

/** A tiny HTTP server on a free loopback port, with handlers a test installs per path. */
final class LocalHttp implements AutoCloseable {

    /** Answers one exchange. */
    @FunctionalInterface
    interface Handler {
        void handle(HttpExchange exchange) throws IOException;
    }

    private final HttpServer server;

    LocalHttp() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.start();
    }

    LocalHttp on(String path, Handler handler) {
        server.createContext(path, exchange -> {
            try (exchange) {
                handler.handle(exchange);
            } catch (IOException e) {
                // The client went away (a cancelled download); nothing to answer.
            }
        });
        return this;
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
    }

    /** Sends {@code body} with status 200 and its length. */
    static void send(HttpExchange exchange, int status, byte[] body) throws IOException {
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
