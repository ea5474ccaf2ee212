package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.TestServer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Request bodies are limited per route (trajectory uploads may use the whole body limit, other JSON bodies a smaller
 * one), refused in the envelope before they are read when their declared length is over it, and bounded together by
 * the bytes they have sent: past the bytes allowed in flight across requests, a body is a 503 with Retry-After.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BodyLimitsIT {

    private static final int BODY_LIMIT = 256 * 1024;
    private static final int JSON_LIMIT = 16 * 1024;
    private static final int IN_FLIGHT_LIMIT = 320 * 1024;
    @AutoClose
    private final TestServer server = TestServer.start(Map.of("crucible.max-body-bytes", BODY_LIMIT,
                "crucible.body.max-json-bytes", JSON_LIMIT, "crucible.body.max-in-flight-bytes", IN_FLIGHT_LIMIT));
    private final String key = server.newKey("erin");
    private final Api api = server.api(key);

    /** An RL job body for an unknown model, padded to about {@code bytes}: read in full, then a 404. */
    private static String trajectoryBody(int bytes) {
        String padding = "p".repeat(Math.max(0, bytes - 300));
        return "{\"model_id\": \"" + UUID.randomUUID() + "\", \"trajectory_groups\": [{\"trajectories\": [{"
                + "\"messages_and_choices\": [{\"role\": \"user\", \"content\": \"" + padding + "\"}],"
                + " \"reward\": 1.0}]}]}";
    }

    @Test
    void aChatBodyOverTheJsonLimitIsA413NamingTheSettingWhileATrajectoryBodyOfThatSizeIsRead() {
        String chat = "{\"model\": \"" + TestServer.BASE_MODEL + "\", \"messages\": [{\"role\": \"user\", \"content\": \""
                + "c".repeat(JSON_LIMIT * 2) + "\"}]}";
        Api.Reply refused = api.post("/v1/chat/completions", chat);
        assertEquals(413, refused.status(), refused.toString());
        assertEquals(413, ((Number) refused.error().get("code")).intValue());
        assertTrue(((String) refused.error().get("message")).contains("crucible.body.max-json-bytes"), refused.toString());

        Api.Reply read = api.post("/v1/preview/training-jobs", trajectoryBody(JSON_LIMIT * 4));
        assertEquals(404, read.status(), read.toString());
        assertEquals("model_id", read.error().get("param"));

        Api.Reply tooLarge = api.post("/v1/preview/training-jobs", trajectoryBody(BODY_LIMIT + 1024));
        assertEquals(413, tooLarge.status(), tooLarge.toString());
    }

    @Test
    void aChunkedBodyOverTheRouteLimitIsA413() throws Exception {
        String chat = "{\"model\": \"" + TestServer.BASE_MODEL + "\", \"messages\": [{\"role\": \"user\", \"content\": \""
                + "c".repeat(JSON_LIMIT * 2) + "\"}]}";
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.url() + "/v1/chat/completions"))
                .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(
                        () -> new ByteArrayInputStream(chat.getBytes(StandardCharsets.UTF_8))))
                .build();
        HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(413, response.statusCode(), response.body());
        assertTrue(response.body().contains("crucible.body.max-json-bytes"), response.body());
    }

    @Test
    void bodiesPastTheBytesReceivedInFlightAreA503WithRetryAfterUntilTheHeldOneIsDone() throws Exception {
        int held = 200 * 1024;
        try (Socket slow = holdBody(250 * 1024, held)) {
            Thread.sleep(500);
            assertEquals(0, slow.getInputStream().available(), "the held body is being read, not answered");
            Api.Reply busy = awaitStatus(503, trajectoryBody(held));
            assertEquals("service_unavailable", busy.error().get("type"));
            assertTrue(busy.headers().containsKey("retry-after"), busy.toString());
            Api.Reply small = api.post("/v1/preview/training-jobs", trajectoryBody(8 * 1024));
            assertEquals(404, small.status(), "a body that fits beside the held one is read: " + small);
        }
        assertEquals(404, awaitStatus(404, trajectoryBody(held)).status());
    }

    @Test
    void anIdleBodyHoldsOnlyTheBytesItSentNotTheLengthItDeclared() throws Exception {
        try (Socket idle = holdBody(250 * 1024, 16)) {
            Thread.sleep(200);
            Api.Reply read = api.post("/v1/preview/training-jobs", trajectoryBody(200 * 1024));
            assertEquals(404, read.status(), "a body beside an idle one that declared 250 KB is read: " + read);
        }
    }

    /**
     * Opens a connection that uploads a file declaring a {@code declared}-byte body and sends only its first
     * {@code sent} bytes (a file part is read as it arrives, so those bytes are received and held).
     */
    private Socket holdBody(int declared, int sent) throws IOException {
        URI base = URI.create(server.url());
        Socket slow = new Socket(base.getHost(), base.getPort());
        OutputStream out = slow.getOutputStream();
        String part = "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"held.jsonl\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n";
        out.write(("POST /v1/files HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + key
                + "\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: " + declared + "\r\n\r\n"
                + part + "x".repeat(Math.max(0, sent - part.length()))).getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return slow;
    }

    /** Posts {@code body} until the answer has {@code status} (the held body's release follows its connection's end). */
    private Api.Reply awaitStatus(int status, String body) throws InterruptedException {
        Api.Reply reply = null;
        for (int i = 0; i < 100; i++) {
            reply = api.post("/v1/preview/training-jobs", body);
            if (reply.status() == status) {
                return reply;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("expected " + status + ", last answer " + reply);
    }
}
