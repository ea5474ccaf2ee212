package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crucible.application.inference.serving.ServedModels;
import dev.crucible.runtime.generation.Generator;
import dev.crucible.server.support.Api;
import dev.crucible.server.support.ForwardGate;
import dev.crucible.server.support.ScriptedModels;
import dev.crucible.server.support.TestServer;
import dev.crucible.testsupport.concurrent.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The generation thread survives an {@link Error} in a forward: the request in flight gets a 503 (or, streaming, an
 * error event) that says nothing of the error, and the next request is served. An engine that fails step after step
 * makes {@code /v1/health} (and the system check) say the model no longer serves until the model is reloaded, which
 * the server does by itself. The scripted model throws on command ({@link ScriptedModels#ERROR},
 * {@link ScriptedModels#BREAK}); its load gate holds the reload so the test sees the model down.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GenerationFailureIT {

    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    private TestServer server;
    private ForwardGate gate;
    private Api api;
    private Api anonymous;

    @BeforeAll
    void start() {
        server = TestServer.start(Map.of("test.scripted-model", "true",
                "crucible.inference.model-check-interval", "100ms"));
        gate = server.bean(ForwardGate.class);
        api = server.api(server.newKey("fay"));
        anonymous = server.api(null);
    }

    @AfterEach
    void reopen() {
        gate.loads().open();
        gate.forwards().open();
    }

    @AfterAll
    void stop() {
        server.close();
    }

    private static Map<String, Object> chat(String content, boolean stream) {
        Map<String, Object> body = new HashMap<>();
        body.put("model", TestServer.BASE_MODEL);
        body.put("messages", List.of(Map.of("role", "user", "content", content)));
        body.put("max_tokens", 16);
        body.put("stream", stream);
        return body;
    }

    private Api.Reply served(String reply) {
        return api.post("/v1/chat/completions", chat("[[reply]]" + reply + "[[/reply]]", false));
    }

    private static void assertUnavailableWithoutInternals(Api.Reply reply) {
        assertEquals(503, reply.status(), reply.toString());
        assertEquals("service_unavailable", reply.error().get("type"), reply.toString());
        assertTrue(reply.headers().containsKey("retry-after"), "a 503 says when to retry: " + reply.headers());
        String text = reply.toString();
        assertFalse(text.contains("Error") || text.contains("scripted") || text.contains("at dev."),
                "a 503 carries nothing of the failure: " + text);
    }

    private Generator generator() {
        return server.bean(ServedModels.class).find(TestServer.BASE_MODEL).orElseThrow().generator();
    }

    @Test
    void anErrorInAForwardFailsTheRequestInFlightWith503AndTheNextIsServed() {
        Generator before = generator();

        Api.Reply failed = api.post("/v1/chat/completions", chat(ScriptedModels.ERROR + " [[reply]]x[[/reply]]",
                false));

        assertUnavailableWithoutInternals(failed);
        Api.Reply next = served("still here");
        assertEquals(200, next.status(), next.toString());
        assertEquals("still here", ((Map<?, ?>) next.firstChoice().get("message")).get("content"));
        assertEquals(200, anonymous.get("/v1/health").status());
        assertEquals(before, generator(), "one failed step needs no reload");
    }

    @Test
    void aStreamedRequestHearsTheFailureAsAnErrorEventAndTheNextIsServed() {
        Api.Events events = api.stream("/v1/chat/completions", chat(ScriptedModels.ERROR + " [[reply]]x[[/reply]]",
                true));

        assertEquals(200, events.status(), events.body());
        List<String> data = events.data();
        assertEquals("data: [DONE]", data.getLast(), events.body());
        Map<String, Object> last = json(data.get(data.size() - 2).substring("data: ".length()));
        Map<?, ?> error = (Map<?, ?>) last.get("error");
        assertEquals(503, ((Number) error.get("code")).intValue(), events.body());
        assertFalse(events.body().contains("scripted") || events.body().contains("OutOfMemory"), events.body());
        Api.Events next = api.stream("/v1/chat/completions", chat("[[reply]]on[[/reply]]", true));
        assertTrue(next.body().contains("\"finish_reason\":\"stop\""), next.body());
    }

    @SuppressWarnings("unchecked")
    @Test
    void aBrokenEngineMakesHealthUnhealthyUntilTheModelIsReloadedAndServesAgain() {
        gate.loads().close();
        assertUnavailableWithoutInternals(api.post("/v1/chat/completions",
                chat(ScriptedModels.BREAK + " [[reply]]x[[/reply]]", false)));
        // the engine now fails every forward; the third failed step in a row stops the model's loop
        assertUnavailableWithoutInternals(served("one"));
        assertUnavailableWithoutInternals(served("two"));

        Api.Reply unhealthy = Await.until(() -> anonymous.get("/v1/health"), r -> r.status() == 503, PATIENCE);
        assertEquals("unhealthy", unhealthy.json().get("status"), unhealthy.toString());
        assertTrue(((Map<String, Object>) unhealthy.json().get("models")).containsKey(TestServer.BASE_MODEL),
                unhealthy.toString());
        Api.Reply check = anonymous.get("/v1/system-check");
        assertEquals(503, check.status(), check.toString());
        assertEquals(false, ((Map<String, Object>) check.json().get("models")).get("success"), check.toString());
        assertUnavailableWithoutInternals(served("while down"));

        gate.loads().open();

        Api.Reply healthy = Await.until(() -> anonymous.get("/v1/health"), r -> r.status() == 200, PATIENCE);
        assertEquals("ok", healthy.json().get("status"));
        Api.Reply back = served("back again");
        assertEquals(200, back.status(), back.toString());
        assertEquals("back again", ((Map<?, ?>) back.firstChoice().get("message")).get("content"));
        assertEquals(200, anonymous.get("/v1/system-check").status());
    }

    private static Map<String, Object> json(String text) {
        try {
            @SuppressWarnings("unchecked")
            Map<String, Object> value = JSON.readValue(text, Map.class);
            return value;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
