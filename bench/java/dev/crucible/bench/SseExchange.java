package dev.crucible.bench;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One HTTP/1.1 POST over a plain socket, its response read as lines on the calling thread: the lean client side of
 * {@code bench/serve}. The client runs on the same cores as the server it times, so what it spends per token is taken
 * from the engine's threads; the JDK's {@code HttpClient} hands every chunk from its selector thread to a worker and on
 * to the reading thread, and a warmed client spent 1.7 to 2.8 ms of CPU a token that way (2026-11-28, 2 cores). Here a
 * chunk costs one blocking read and the parsing of its lines. Handles a chunked or a sized body; the connection is
 * closed after the exchange (and when the reader stops early, which ends the request on the server).
 */
final class SseExchange implements AutoCloseable {

    /** Hears each line of the response body, without its line end; false stops reading. */
    @FunctionalInterface
    interface Lines {
        boolean line(String line) throws Exception;
    }

    private static final int TIMEOUT_MILLIS = 30 * 60 * 1000;

    private final Socket socket;
    private final InputStream in;
    private final int status;
    private final boolean chunked;
    /** Bytes left in the current chunk (chunked), or in the body (sized; -1 while unknown: read to the end). */
    private long left;
    private boolean ended;

    private SseExchange(Socket socket, InputStream in, int status, boolean chunked, long left) {
        this.socket = socket;
        this.in = in;
        this.status = status;
        this.chunked = chunked;
        this.left = left;
    }

    /** Sends {@code body} as a JSON POST to {@code to} with a bearer {@code key}, and reads the response's head. */
    static SseExchange post(URI to, String key, byte[] body) throws IOException {
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(to.getHost(), to.getPort()), 10_000);
            socket.setSoTimeout(TIMEOUT_MILLIS);
            OutputStream out = socket.getOutputStream();
            String head = "POST " + to.getRawPath() + " HTTP/1.1\r\nHost: " + to.getHost() + ":" + to.getPort()
                    + "\r\nAuthorization: Bearer " + key + "\r\nContent-Type: application/json\r\nAccept: "
                    + "text/event-stream\r\nContent-Length: " + body.length + "\r\nConnection: close\r\n\r\n";
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            InputStream in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
            String statusLine = rawLine(in);
            if (statusLine == null || !statusLine.startsWith("HTTP/1.")) {
                throw new IOException("not an HTTP/1.x response: " + statusLine);
            }
            int status = Integer.parseInt(statusLine.substring(9, 12));
            boolean chunked = false;
            long length = -1;
            for (String header = rawLine(in); header != null && !header.isEmpty(); header = rawLine(in)) {
                String lower = header.toLowerCase(Locale.ROOT);
                if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                    chunked = true;
                } else if (lower.startsWith("content-length:")) {
                    length = Long.parseLong(header.substring(header.indexOf(':') + 1).trim());
                }
            }
            return new SseExchange(socket, in, status, chunked, chunked ? 0 : length);
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    int status() {
        return status;
    }

    /** Tells {@code lines} each line of the body until it ends or {@code lines} says stop. */
    void read(Lines lines) throws Exception {
        ByteArrayOutputStream line = new ByteArrayOutputStream(512);
        for (int b = next(); b >= 0; b = next()) {
            if (b == '\n') {
                int size = line.size();
                byte[] bytes = line.toByteArray();
                line.reset();
                if (!lines.line(new String(bytes, 0, size > 0 && bytes[size - 1] == '\r' ? size - 1 : size,
                        StandardCharsets.UTF_8))) {
                    return;
                }
            } else {
                line.write(b);
            }
        }
        if (line.size() > 0) {
            lines.line(line.toString(StandardCharsets.UTF_8));
        }
    }

    /** The whole body as text, for an error's message. */
    String rest() throws Exception {
        StringBuilder all = new StringBuilder();
        read(l -> {
            all.append(l).append('\n');
            return all.length() < 4096;
        });
        return all.toString().strip();
    }

    /** The body's next byte, or -1 at its end. */
    private int next() throws IOException {
        if (ended) {
            return -1;
        }
        if (chunked && left == 0) {
            String size = rawLine(in);
            if (size != null && size.isEmpty()) {
                size = rawLine(in); // the line end after the previous chunk's data
            }
            int extension = size == null ? -1 : size.indexOf(';');
            left = size == null ? 0 : Long.parseLong((extension < 0 ? size : size.substring(0, extension)).trim(), 16);
            if (left == 0) {
                ended = true;
                return -1;
            }
        }
        if (!chunked && left == 0) {
            ended = true;
            return -1;
        }
        int b = in.read();
        if (b < 0) {
            ended = true;
            return -1;
        }
        if (left > 0) {
            left--;
        }
        return b;
    }

    /** A line of the head or a chunk size, CRLF or LF ended; null at the end of the stream. */
    private static String rawLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder(64);
        for (int b = in.read(); b >= 0; b = in.read()) {
            if (b == '\n') {
                int end = line.length();
                return line.substring(0, end > 0 && line.charAt(end - 1) == '\r' ? end - 1 : end);
            }
            line.append((char) b);
        }
        return line.isEmpty() ? null : line.toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
