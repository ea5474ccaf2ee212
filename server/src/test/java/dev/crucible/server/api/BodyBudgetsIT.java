package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.TestServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Bodies count by the bytes that arrive, not by the lengths they declare: idle uploads declaring the largest body hold
 * nothing and are answered 408 once they stall past the read timeout; one key's bytes in flight and uploads at once
 * are bounded (429) while another key is served. The body limits are the defaults (256 MiB a body, 512 MiB in
 * flight).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BodyBudgetsIT {

    private static final int DECLARED = 256 * 1024 * 1024;
    private static final int KEY_BYTES = 1024 * 1024;
    @AutoClose
    private final TestServer server = TestServer.start(Map.of("crucible.body.read-timeout", "3s",
            "crucible.body.max-uploads-per-key", 2, "crucible.body.max-in-flight-bytes-per-key", KEY_BYTES));

    private static Map<String, Object> chat() {
        return Map.of("model", TestServer.BASE_MODEL, "max_tokens", 2,
                "messages", List.of(Map.of("role", "user", "content", "hello")));
    }

    @Test
    void twoIdleUploadsDeclaring256MiBLeaveAnotherTenantsChatServedAndAreAnswered408() throws Exception {
        String idler = server.newKey("idler-" + System.nanoTime());
        Api other = server.api(server.newKey("chatter-" + System.nanoTime()));
        try (Socket first = openBody(idler, "/v1/files", DECLARED, "--b\r\n");
                Socket second = openBody(idler, "/v1/files", DECLARED, "--b\r\n")) {
            Thread.sleep(300);
            long started = System.nanoTime();
            Api.Reply reply = other.post("/v1/chat/completions", chat());
            long millis = (System.nanoTime() - started) / 1_000_000;
            assertEquals(200, reply.status(), "another tenant's chat beside two idle uploads: " + reply);
            assertTrue(millis < 15_000, "the chat took " + millis + " ms");

            for (Socket idle : List.of(first, second)) {
                String answer = readAnswer(idle);
                assertTrue(answer.startsWith("HTTP/1.1 408"), answer);
                assertTrue(answer.contains("crucible.body.read-timeout"), answer);
            }
        }
        // the stalled uploads gave their places back: the key may upload again
        Api.Reply upload = server.api(idler).upload("/v1/files", Map.of("purpose", "fine-tune"), "a.jsonl",
                "{\"a\": 1}\n".getBytes(StandardCharsets.UTF_8));
        assertEquals(200, upload.status(), upload.toString());
    }

    @Test
    void aKeySendingItsMostUploadsGets429WhileAnotherKeyUploads() throws Exception {
        String busy = server.newKey("uploader-" + System.nanoTime());
        Api other = server.api(server.newKey("other-uploader-" + System.nanoTime()));
        try (Socket first = openBody(busy, "/v1/files", 4096, "--b\r\n");
                Socket second = openBody(busy, "/v1/files", 4096, "--b\r\n")) {
            // both are being read (and neither was refused) before the third upload is sent
            Thread.sleep(500);
            assertEquals(0, first.getInputStream().available() + second.getInputStream().available());
            Api.Reply refused = awaitStatus(429, () -> server.api(busy).upload("/v1/files",
                    Map.of("purpose", "fine-tune"), "a.jsonl", "{\"a\": 1}\n".getBytes(StandardCharsets.UTF_8)));
            assertEquals("rate_limit_error", refused.error().get("type"));
            assertTrue(refused.error().get("message").toString().contains("crucible.body.max-uploads-per-key"),
                    refused.toString());
            assertTrue(refused.headers().containsKey("retry-after"), refused.toString());

            Api.Reply served = other.upload("/v1/files", Map.of("purpose", "fine-tune"), "b.jsonl",
                    "{\"b\": 1}\n".getBytes(StandardCharsets.UTF_8));
            assertEquals(200, served.status(), "another key is served: " + served);
        }
    }

    @Test
    void aKeyWhoseBodiesHoldItsBytesGets429WhileAnotherKeysBodyIsRead() throws Exception {
        String heavy = server.newKey("heavy-" + System.nanoTime());
        Api other = server.api(server.newKey("light-" + System.nanoTime()));
        int sent = KEY_BYTES * 3 / 4;
        // a file upload's part is read on as it arrives (Micronaut hands the controller the completed part)
        String start = "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.jsonl\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n" + "x".repeat(sent);
        try (Socket held = openBody(heavy, "/v1/files", KEY_BYTES * 2, start)) {
            String body = trajectoryBody(KEY_BYTES / 2);
            Thread.sleep(500);
            assertEquals(0, held.getInputStream().available(), () -> "the held body was answered: " + peek(held));
            Api.Reply refused = awaitStatus(429, () -> server.api(heavy).post("/v1/preview/training-jobs", body));
            assertTrue(refused.error().get("message").toString().contains("crucible.body.max-in-flight-bytes-per-key"),
                    refused.toString());
            assertTrue(refused.headers().containsKey("retry-after"), refused.toString());

            Api.Reply read = other.post("/v1/preview/training-jobs", body);
            assertEquals(404, read.status(), "another key's body of that size is read in full: " + read);
            assertEquals("model_id", read.error().get("param"));
        }
    }

    /** An RL job body for an unknown model, padded to about {@code bytes}: read in full, then a 404. */
    static String trajectoryBody(int bytes) {
        String padding = "p".repeat(Math.max(0, bytes - 300));
        return "{\"model_id\": \"" + UUID.randomUUID() + "\", \"trajectory_groups\": [{\"trajectories\": [{"
                + "\"messages_and_choices\": [{\"role\": \"user\", \"content\": \"" + padding + "\"}],"
                + " \"reward\": 1.0}]}]}";
    }

    /** Opens a connection that posts to {@code path} declaring a {@code declared}-byte body and sends only {@code start}. */
    private Socket openBody(String key, String path, long declared, String start) throws IOException {
        URI base = URI.create(server.url());
        Socket socket = new Socket(base.getHost(), base.getPort());
        OutputStream out = socket.getOutputStream();
        String type = path.equals("/v1/files") ? "multipart/form-data; boundary=b" : "application/json";
        out.write(("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + key
                + "\r\nContent-Type: " + type + "\r\nContent-Length: " + declared + "\r\n\r\n" + start)
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return socket;
    }

    private static String peek(Socket socket) {
        try {
            return new String(socket.getInputStream().readNBytes(socket.getInputStream().available()),
                    StandardCharsets.UTF_8);
        } catch (IOException e) {
            return e.toString();
        }
    }

    /** What the server wrote on {@code socket} until it closed it (at most 30 s). */
    private static String readAnswer(Socket socket) throws IOException {
        socket.setSoTimeout(30_000);
        ByteArrayOutputStream answer = new ByteArrayOutputStream();
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[4096];
        try {
            for (int n; (n = in.read(buffer)) > 0; ) {
                answer.write(buffer, 0, n);
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the server neither answered nor closed a stalled body: "
                    + answer.toString(StandardCharsets.UTF_8), e);
        }
        return answer.toString(StandardCharsets.UTF_8);
    }

    /** Sends until the answer has {@code status} (the held bytes are counted as the server reads them). */
    private static Api.Reply awaitStatus(int status, java.util.function.Supplier<Api.Reply> send)
            throws InterruptedException {
        Api.Reply reply = null;
        for (int i = 0; i < 50; i++) {
            reply = send.get();
            if (reply.status() == status) {
                return reply;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("expected " + status + ", last answer " + reply);
    }
}
