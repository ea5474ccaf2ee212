package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Bad input gets a clear 4xx in the one envelope, naming the field, and changes nothing. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BadInputIT {

    private static final int BODY_LIMIT = 64 * 1024;
    private static final int STRING_LIMIT = 8192;
    private static final int DEPTH_LIMIT = 32;
    @AutoClose
    private final TestServer server = TestServer.start(Map.of("crucible.max-body-bytes", BODY_LIMIT,
                "crucible.json.max-string-length", STRING_LIMIT, "crucible.json.max-nesting-depth", DEPTH_LIMIT));
    private final Api api = server.api(server.newKey("carol"));
    private final String model = api.post("/v1/preview/models", RequestBodies.createModel("p", "m")).text("id");

    private static void assertEnvelope(Api.Reply reply, int status, String param) {
        assertEquals(status, reply.status(), reply.toString());
        Map<String, Object> error = reply.error();
        assertEquals(status, ((Number) error.get("code")).intValue());
        assertTrue(error.get("message") instanceof String message && !message.isBlank());
        assertTrue(error.get("type") instanceof String);
        assertTrue(error.containsKey("param"));
        assertEquals(param, error.get("param"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/v1/preview/models", "/v1/preview/training-jobs", "/v1/preview/sft-training-jobs"})
    void malformedJsonIsA400(String path) {
        assertEnvelope(api.post(path, "{\"project\": "), 400, null);
        assertEnvelope(api.post(path, "[1, 2]"), 400, null);
    }

    @Test
    void malformedJsonOnModelSubroutesIsA400() {
        assertEnvelope(api.post("/v1/preview/models/" + model + "/log", "{oops"), 400, null);
        assertEnvelope(api.delete("/v1/preview/models/" + model + "/checkpoints", "nope"), 400, null);
    }

    @Test
    void wrongTypesNameTheField() {
        assertEnvelope(api.post("/v1/preview/models", Map.of("project", 1, "name", "n", "base_model", "b")), 400, "project");
        assertEnvelope(api.post("/v1/preview/models", Map.of("project", "p", "name", "n", "base_model", "b",
                "return_existing", "yes")), 400, "return_existing");
        assertEnvelope(api.post("/v1/preview/models", Map.of("project", "p", "base_model", "b")), 400, "name");
        assertEnvelope(api.post("/v1/preview/models", Map.of("project", "p/q", "name", "n",
                "base_model", TestServer.BASE_MODEL)), 400, "project");
        assertEnvelope(api.delete("/v1/preview/models/" + model + "/checkpoints", Map.of("steps", "1")), 400, "steps");
        assertEnvelope(api.delete("/v1/preview/models/" + model + "/checkpoints", Map.of("steps", List.of(1.5))), 400, "steps");
        assertEnvelope(api.delete("/v1/preview/models/" + model + "/checkpoints", Map.of()), 400, "steps");
        assertEnvelope(api.post("/v1/preview/models/" + model + "/log", Map.of("split", "val")), 400, "trajectory_groups");
        assertEnvelope(api.post("/v1/preview/models/" + model + "/log", Map.of("split", "a b",
                "trajectory_groups", List.of())), 400, "split");
        assertEnvelope(api.post("/v1/preview/training-jobs", Map.of("model_id", 5)), 400, "model_id");
        assertEnvelope(api.post("/v1/preview/training-jobs", Map.of("model_id", model, "trajectory_groups", List.of(),
                "experimental_config", "fast")), 400, "experimental_config");
    }

    @Test
    void pageParametersOutOfRangeOrMalformedAreNamed() {
        String base = "/v1/preview/models/" + model + "/checkpoints";
        assertEnvelope(api.get(base + "?limit=0"), 400, "limit");
        assertEnvelope(api.get(base + "?limit=101"), 400, "limit");
        assertEnvelope(api.get(base + "?limit=ten"), 400, "limit");
        assertEnvelope(api.get(base + "?order=sideways"), 400, "order");
        assertEnvelope(api.get(base + "?after=zzz"), 400, "after");
        assertEnvelope(api.get(base + "?after=00000000-0000-0000-0000-000000000000"), 400, "after");
        assertEquals(200, api.get(base + "?limit=100&order=DESC").status());
    }

    @Test
    void malformedAndUnknownModelIdsAreNamed() {
        assertEnvelope(api.get("/v1/preview/models/xyz/checkpoints"), 400, "model_id");
        assertEnvelope(api.delete("/v1/preview/models/xyz", null), 400, "model_id");
        assertEnvelope(api.delete("/v1/preview/models/00000000-0000-0000-0000-000000000001", null), 404, "model_id");
        assertEnvelope(api.post("/v1/preview/models/00000000-0000-0000-0000-000000000001/log",
                Map.of("split", "val", "trajectory_groups", List.of())), 404, "model_id");
    }

    @Test
    void oversizedBodyIsA413AndNothingIsCreated() {
        String big = "x".repeat(BODY_LIMIT * 2);
        Api.Reply reply = api.post("/v1/preview/models", Map.of("project", "p", "name", "huge",
                "base_model", TestServer.BASE_MODEL, "padding", big));
        assertEnvelope(reply, 413, null);
        assertFalse(api.get("/v1/models").data().stream().anyMatch(m -> m.get("id").toString().endsWith("/huge")));
    }

    @Test
    void aUriTooLongIsA414AndHeadersTooLargeAreA431() {
        Api.Reply uri = api.get("/v1/models?after=" + "a".repeat(16 * 1024));
        assertEnvelope(uri, 414, null);
        assertEquals("request_too_large", uri.error().get("type"));
        Api.Reply headers = api.withAuthorization("Bearer " + "k".repeat(32 * 1024)).get("/v1/models");
        assertEnvelope(headers, 431, null);
        // the connection cannot be read further: a pooling client must not send its next request into it
        assertEquals(List.of("close"), uri.headers().get("connection"));
        assertEquals(List.of("close"), headers.headers().get("connection"));
        assertEquals(200, api.get("/v1/models").status());
    }

    @Test
    void aJsonStringOverTheLimitIsA400NamingTheSettingAndTheField() {
        Api.Reply reply = api.post("/v1/preview/models", Map.of("project", "p", "name", "long-string",
                "base_model", TestServer.BASE_MODEL, "description", "d".repeat(STRING_LIMIT + 1)));
        assertEnvelope(reply, 400, "description");
        String message = (String) reply.error().get("message");
        assertTrue(message.contains("crucible.json.max-string-length") && message.contains(String.valueOf(STRING_LIMIT)),
                message);
        assertFalse(message.contains("StreamReadConstraints") || message.contains("jackson"), message);
        assertFalse(api.get("/v1/models").data().stream().anyMatch(m -> m.get("id").toString().endsWith("/long-string")));
    }

    @Test
    void jsonNestedTooDeepOrANumberTooLongIsA400NamingTheSetting() {
        String deep = "{\"project\": " + "[".repeat(DEPTH_LIMIT + 1) + "]".repeat(DEPTH_LIMIT + 1) + "}";
        Api.Reply nested = api.post("/v1/preview/models", deep);
        assertEquals(400, nested.status(), nested.toString());
        assertTrue(((String) nested.error().get("message")).contains("crucible.json.max-nesting-depth"), nested.toString());
        Api.Reply number = api.post("/v1/preview/models", "{\"project\": " + "9".repeat(1001) + "}");
        assertEnvelope(number, 400, "project");
        assertTrue(((String) number.error().get("message")).contains("crucible.json.max-number-length"), number.toString());
    }

    @Test
    void missingOrWrongCredentialsAreA401InTheEnvelope() {
        assertEnvelope(api.withAuthorization(null).get("/v1/models"), 401, null);
        assertEnvelope(api.withAuthorization("Bearer wrong").get("/v1/preview/models/" + model + "/checkpoints"), 401, null);
        assertEnvelope(api.withAuthorization("Basic YXBpOndyb25n").post("/v1/preview/models",
                RequestBodies.createModel("p", "m")), 401, null);
    }

    @Test
    void unknownRoutesAndMethodsAnswerInTheEnvelope() {
        assertEnvelope(api.get("/v1/preview/nothing-here"), 404, null);
        assertEquals(405, api.send("PUT", "/v1/preview/models", "{}").status());
        assertNull(api.get("/v1/preview/nothing-here").error().get("param"));
    }

    @Test
    void everyResponseCarriesARequestId() {
        Api.Reply refused = api.get("/v1/preview/models/xyz/checkpoints");
        assertTrue(refused.headers().get("x-request-id").getFirst().matches("[0-9a-f-]{36}"), refused.headers().toString());
        Api.Reply ok = api.get("/v1/health");
        assertTrue(ok.headers().containsKey("x-request-id"));
    }

    @Test
    void healthNeedsNoKey() {
        Api.Reply health = api.withAuthorization(null).get("/v1/health");
        assertEquals(200, health.status());
        assertEquals(Map.of("status", "ok"), health.json());
    }
}
