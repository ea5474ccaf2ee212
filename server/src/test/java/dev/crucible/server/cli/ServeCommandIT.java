package dev.crucible.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.Crucible;
import dev.crucible.server.support.ChildJvm;
import dev.crucible.server.support.TestServer;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * {@code crucible serve} as a process, the way an operator runs it: on its embedded defaults it starts and serves,
 * and SIGTERM (what {@code docker stop} and systemd send) ends it, embedded database included, well before anyone
 * would resort to SIGKILL.
 */
class ServeCommandIT {

    @Test
    void sigtermStopsTheServerAndItsEmbeddedDatabase() throws Exception {
        Path dataDir = TestServer.newDataDir();
        Serving serving = start(dataDir, dataDir.resolve("serve.log"), Map.of());
        Process server = serving.process();
        int port = serving.port();
        try {
            Optional<InetAddress> external = externalAddress();
            if (external.isPresent()) {
                assertFalse(listensOn(external.get(), port), "by default only this machine reaches the server");
            }
            Path postmaster = dataDir.resolve("postgres").resolve("postmaster.pid");
            assertTrue(Files.exists(postmaster), "the embedded database runs in the data directory");

            server.destroy();
            assertTrue(server.waitFor(45, TimeUnit.SECONDS), "SIGTERM ended the process");
            assertEquals(143, server.exitValue(), "ended by the signal, after the shutdown hooks ran");
            assertFalse(Files.exists(postmaster), "the embedded database was stopped too");
        } finally {
            server.destroyForcibly();
        }
    }

    @Test
    void crucibleHostOpensItToOtherMachines() throws Exception {
        Optional<InetAddress> external = externalAddress();
        Assumptions.assumeTrue(external.isPresent(), "this machine has a non-loopback IPv4 address");
        Path dataDir = TestServer.newDataDir();
        Serving serving = start(dataDir, dataDir.resolve("serve.log"), Map.of("CRUCIBLE_HOST", "0.0.0.0"));
        Process server = serving.process();
        int port = serving.port();
        try {
            assertTrue(listensOn(external.get(), port), "it listens on " + external.get() + " too; log in " + dataDir);
            server.destroy();
            assertTrue(server.waitFor(45, TimeUnit.SECONDS));
        } finally {
            server.destroyForcibly();
        }
    }

    /** A {@code crucible serve} process that answers its health check, and the port it listens on. */
    record Serving(Process process, int port) {
    }

    /**
     * Starts {@code crucible serve} on {@code dataDir}, its output in {@code log}, on a free port, and waits until it
     * answers its health check. The HTTP tests run in parallel forks, so another process may take the port between
     * its pick and the server's bind: a server whose log says the address is in use is stopped and started again on
     * another port, up to three times. Fails when the server does not come up within two minutes.
     */
    static Serving start(Path dataDir, Path log, Map<String, String> env, String... extra)
            throws IOException, InterruptedException {
        for (int attempt = 1; ; attempt++) {
            int port = freePort();
            Process server = serve(dataDir, log, port, env, extra);
            if (healthy(server, port, Duration.ofSeconds(120))) {
                return new Serving(server, port);
            }
            server.destroy();
            if (!server.waitFor(45, TimeUnit.SECONDS)) {
                server.destroyForcibly().waitFor();
            }
            if (attempt == 3 || !Files.readString(log).contains("already in use")) {
                throw new AssertionError("the server came up on port " + port + "; log in " + log);
            }
        }
    }

    /** {@code crucible serve} on {@code dataDir}, its output in {@code log}. */
    static Process serve(Path dataDir, Path log, int port, Map<String, String> env, String... extra) throws IOException {
        List<String> options = new ArrayList<>(List.of("--enable-native-access=ALL-UNNAMED"));
        options.addAll(List.of(extra));
        List<String> command = ChildJvm.command(ChildJvm.SERVER, options);
        command.addAll(List.of(Crucible.class.getName(), "serve", "--port", Integer.toString(port),
                "--data-dir", dataDir.toString()));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(env);
        return builder.start();
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static Optional<InetAddress> externalAddress() throws IOException {
        return NetworkInterface.networkInterfaces().filter(i -> {
            try {
                return i.isUp() && !i.isLoopback();
            } catch (IOException e) {
                return false;
            }
        }).flatMap(NetworkInterface::inetAddresses).filter(a -> a instanceof Inet4Address && !a.isLoopbackAddress())
                .findFirst();
    }

    /**
     * Whether a socket of this machine already listens on {@code address:port}, told without sending anything there
     * (tests send traffic only to loopback): binding that very address and port fails when the server holds it or
     * the wildcard address, and succeeds when the server listens on loopback alone.
     */
    private static boolean listensOn(InetAddress address, int port) {
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(false);
            probe.bind(new InetSocketAddress(address, port));
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    /** Whether {@code server} answers its health check on {@code port} within {@code limit}; false once it has ended. */
    static boolean healthy(Process server, int port, Duration limit) throws InterruptedException {
        HttpClient client = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline && server.isAlive()) {
            try {
                HttpResponse<String> reply = client.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + "/v1/health")).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (reply.statusCode() == 200) {
                    return true;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        return false;
    }
}
