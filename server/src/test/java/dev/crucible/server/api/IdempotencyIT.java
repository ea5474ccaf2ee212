package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.crucible.adapters.http.idempotency.RequestFingerprint;
import dev.crucible.application.idempotency.IdempotencyStore;
import dev.crucible.domain.idempotency.Claim;
import dev.crucible.domain.idempotency.IdempotencyKey;
import dev.crucible.domain.idempotency.IdempotentRequest;
import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * {@code Idempotency-Key} on every creating POST, as Stripe's API honours it: a retry with the same key and body gets
 * the first answer and creates nothing; the key with another body is a 422; keys are per entity and per route, kept
 * in PostgreSQL (a restarted server still knows them), and a refused creation leaves its key free.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IdempotencyIT {

    private static final String PROJECT = "ivy/proj";
    private static final Map<String, Object> NO_RUNNER = Map.of("crucible.runner.enabled", false);
    @AutoClose
    private final TestServer server = TestServer.start(NO_RUNNER);
    private final String ivyKey = server.newKey("ivy");
    private final Api ivy = server.api(ivyKey);
    private final Api otto = server.api(server.newKey("otto"));
    private final String modelId = ivy.post("/v1/preview/models", RequestBodies.createModel("p", "m")).text("id");

    private static String newKey() {
        return UUID.randomUUID().toString();
    }

    private long count(String table) {
        try (Connection connection = DriverManager.getConnection(server.databaseUrl(), "postgres", "");
                Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SELECT count(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void assertOk(Api.Reply reply) {
        assertEquals(200, reply.status(), reply.toString());
    }

    private static void assertError(Api.Reply reply, int status) {
        assertEquals(status, reply.status(), reply.toString());
        assertEquals(IdempotencyKey.HEADER, reply.error().get("param"), reply.toString());
    }

    private static String replayed(Api.Reply reply) {
        List<String> values = reply.headers().get("idempotent-replayed");
        return values == null ? null : values.getFirst();
    }

    /** Posts {@code body} twice with one key; the retry answers the first answer, marked as replayed. */
    private Api.Reply postedTwice(Api api, String path, Object body, String table) {
        Api keyed = api.withHeader(IdempotencyKey.HEADER, newKey());
        long before = count(table);
        Api.Reply first = keyed.post(path, body);
        assertOk(first);
        assertNull(replayed(first));
        Api.Reply retry = keyed.post(path, body);
        assertOk(retry);
        assertEquals(first.body(), retry.body());
        assertEquals("true", replayed(retry));
        assertEquals(before + 1, count(table), "one row for two keyed posts in " + table);
        return first;
    }

    private Map<String, Object> feedback(String note) {
        Map<String, Object> body = new HashMap<>();
        body.put("project_id", PROJECT);
        body.put("weave_ref", "weave:///ivy/proj/call/0192f0a2-0000-7000-8000-000000000001");
        body.put("feedback_type", "custom");
        body.put("payload", Map.of("note", note));
        return body;
    }

    @Test
    void aRetriedJobPostQueuesOneJobAndGetsTheFirstAnswer() {
        postedTwice(ivy, "/v1/preview/training-jobs", RequestBodies.rlJob(modelId), "training_jobs");
        Map<String, Object> sft = Map.of("model_id", modelId, "training_data_url", "https://example.com/data.jsonl");
        postedTwice(ivy, "/v1/preview/sft-training-jobs", sft, "training_jobs");
    }

    @Test
    void everyOtherCreatingRouteRunsOncePerKey() {
        postedTwice(ivy, "/feedback/create", feedback("once"), "feedback");
        Map<String, Object> model = new HashMap<>(RequestBodies.createModel("p", "once"));
        model.put("return_existing", false);
        postedTwice(ivy, "/v1/preview/models", model, "models");
        postedTwice(ivy, "/v1/preview/models/" + modelId + "/log",
                Map.of("split", "val", "trajectory_groups", RequestBodies.trajectoryGroups(0.0, 1.0)), "trajectory_logs");

        String id = ivy.post("/feedback/create", feedback("old")).text("id");
        Map<String, Object> replacement = new HashMap<>(feedback("new"));
        replacement.put("feedback_id", id);
        Api keyed = ivy.withHeader(IdempotencyKey.HEADER, newKey());
        Api.Reply replaced = keyed.post("/feedback/replace", replacement);
        assertOk(replaced);
        Api.Reply again = keyed.post("/feedback/replace", replacement);
        assertOk(again);
        assertEquals(replaced.body(), again.body());
        assertEquals("true", replayed(again));
    }

    @Test
    void aRetriedUploadStoresOneFileAndAnotherFileUnderTheKeyIs422() {
        Api keyed = ivy.withHeader(IdempotencyKey.HEADER, newKey());
        byte[] content = "{\"messages\":[]}\n".getBytes(StandardCharsets.UTF_8);
        long before = count("files");
        Api.Reply first = keyed.upload("/v1/files", Map.of("purpose", "fine-tune"), "a.jsonl", content);
        assertOk(first);
        Api.Reply retry = keyed.upload("/v1/files", Map.of("purpose", "fine-tune"), "a.jsonl", content);
        assertOk(retry);
        assertEquals(first.body(), retry.body());
        assertEquals("true", replayed(retry));
        assertError(keyed.upload("/v1/files", Map.of("purpose", "fine-tune"), "a.jsonl",
                "{\"messages\":[1]}\n".getBytes(StandardCharsets.UTF_8)), 422);
        assertEquals(before + 1, count("files"));
    }

    @Test
    void theKeyWithAnotherBodyIs422AndCreatesNothing() {
        Api keyed = ivy.withHeader(IdempotencyKey.HEADER, newKey());
        assertOk(keyed.post("/feedback/create", feedback("first")));
        long before = count("feedback");
        assertError(keyed.post("/feedback/create", feedback("second")), 422);
        assertEquals(before, count("feedback"));
    }

    @Test
    void keysArePerEntityAndPerRoute() {
        String key = newKey();
        Api.Reply mine = ivy.withHeader(IdempotencyKey.HEADER, key).post("/feedback/create", feedback("x"));
        Api.Reply theirs = otto.withHeader(IdempotencyKey.HEADER, key).post("/feedback/create",
                Map.of("project_id", "otto/proj", "weave_ref", "weave:///otto/proj/call/0192f0a2-0000-7000-8000-000000000001",
                        "feedback_type", "custom", "payload", Map.of("note", "x")));
        assertOk(mine);
        assertOk(theirs);
        assertNull(replayed(theirs));
        assertNotEquals(mine.text("id"), theirs.text("id"));
        Map<String, Object> model = new HashMap<>(RequestBodies.createModel("p", "per-route"));
        Api.Reply model1 = ivy.withHeader(IdempotencyKey.HEADER, key).post("/v1/preview/models", model);
        assertOk(model1);
        assertNull(replayed(model1));
    }

    @Test
    void aRefusedCreationLeavesItsKeyFree() {
        Api keyed = ivy.withHeader(IdempotencyKey.HEADER, newKey());
        Api.Reply refused = keyed.post("/v1/preview/training-jobs", RequestBodies.rlJob(UUID.randomUUID().toString()));
        assertEquals(404, refused.status(), refused.toString());
        assertOk(keyed.post("/v1/preview/training-jobs", RequestBodies.rlJob(modelId)));
    }

    @Test
    void aKeyStillBeingHandledIs409() {
        Map<String, Object> body = feedback("pending");
        String key = newKey();
        IdempotentRequest pending = new IdempotentRequest(new EntityName("ivy"), "feedback", new IdempotencyKey(key),
                RequestFingerprint.of(body));
        Instant now = Instant.now();
        IdempotencyStore store = server.bean(IdempotencyStore.class);
        assertInstanceOf(Claim.Granted.class, store.claim(pending, now, now.minus(Duration.ofDays(1))));
        long before = count("feedback");
        assertError(ivy.withHeader(IdempotencyKey.HEADER, key).post("/feedback/create", body), 409);
        assertEquals(before, count("feedback"));
        store.release(pending);
        assertOk(ivy.withHeader(IdempotencyKey.HEADER, key).post("/feedback/create", body));
    }

    @Test
    void anExpiredKeyIsFreeAgain() {
        Map<String, Object> body = feedback("expiring");
        String key = newKey();
        Api.Reply first = ivy.withHeader(IdempotencyKey.HEADER, key).post("/feedback/create", body);
        assertOk(first);
        IdempotentRequest request = new IdempotentRequest(new EntityName("ivy"), "feedback", new IdempotencyKey(key),
                RequestFingerprint.of(body));
        Instant now = Instant.now();
        IdempotencyStore store = server.bean(IdempotencyStore.class);
        assertInstanceOf(Claim.Answered.class, store.claim(request, now, now.minus(Duration.ofHours(24))));
        assertInstanceOf(Claim.Granted.class, store.claim(request, now, now.plusSeconds(1)));
    }

    @Test
    void aRestartedServerStillAnswersARetry() {
        String key = newKey();
        Api.Reply first = ivy.withHeader(IdempotencyKey.HEADER, key).post("/feedback/create", feedback("durable"));
        assertOk(first);
        try (TestServer restarted = TestServer.start(server.databaseUrl(), server.dataDir(), NO_RUNNER)) {
            Api.Reply retry = restarted.api(ivyKey).withHeader(IdempotencyKey.HEADER, key).post("/feedback/create", feedback("durable"));
            assertOk(retry);
            assertEquals(first.body(), retry.body());
            assertEquals("true", replayed(retry));
        }
    }

    @Test
    void aMalformedKeyIs400() {
        assertError(ivy.withHeader(IdempotencyKey.HEADER, "k".repeat(256)).post("/feedback/create", feedback("long")),
                400);
    }
}
