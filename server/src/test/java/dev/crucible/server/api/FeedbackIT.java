package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Weave-style feedback over HTTP with Basic authentication, as the Weave client sends it. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FeedbackIT {

    private static final String PROJECT = "gina/proj";
    private static final String REF = "weave:///gina/proj/object/answer:abc123";
    @AutoClose
    private final TestServer server = TestServer.start(Map.of());
    private final Api weave = server.api(null).withBasic(server.newKey("gina"));
    private final Api other = server.api(server.newKey("henry"));

    private static Map<String, Object> draft(String type, Map<String, Object> payload) {
        return RequestBodies.feedback(PROJECT, type, payload);
    }

    private List<Map<String, Object>> rows(Map<String, Object> query) {
        Map<String, Object> body = new HashMap<>(query);
        body.put("project_id", PROJECT);
        Api.Reply reply = weave.post("/feedback/query", body);
        assertEquals(200, reply.status(), reply.toString());
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> result = (List<Map<String, Object>>) reply.json().get("result");
        return result;
    }

    private static Map<String, Object> byId(String id) {
        return Map.of("query", Map.of("$expr", Map.of("$eq", List.of(Map.of("$getField", "id"), Map.of("$literal", id)))));
    }

    @Test
    void createThenQueryReturnsTheRowInWeavesShape() {
        Api.Reply created = weave.post("/feedback/create", draft("custom", Map.of("score", 0.9, "note", "good")));
        assertEquals(200, created.status(), created.toString());
        String id = created.text("id");
        assertTrue(created.text("created_at").endsWith("Z"));
        assertTrue(created.text("svc_user_id").startsWith("gina"));
        assertEquals(Map.of("score", 0.9, "note", "good"), created.json().get("payload"));

        List<Map<String, Object>> rows = rows(byId(id));
        assertEquals(1, rows.size());
        Map<String, Object> row = rows.getFirst();
        assertEquals(PROJECT, row.get("project_id"));
        assertEquals(REF, row.get("svc_ref"));
        assertEquals("custom", row.get("feedback_type"));
        assertEquals(created.text("svc_user_id"), row.get("svc_user_id"));
        assertEquals(created.text("created_at"), row.get("created_at"));
    }

    @Test
    void replaceDeletesTheOldRowAndInsertsANewOneWithANewId() {
        String first = weave.post("/feedback/create", draft("custom", Map.of("v", 1))).text("id");
        Map<String, Object> body = draft("custom", Map.of("v", 2));
        body.put("feedback_id", first);
        Api.Reply replaced = weave.post("/feedback/replace", body);
        assertEquals(200, replaced.status(), replaced.toString());
        assertNotEquals(first, replaced.text("id"));
        assertEquals(List.of(), rows(byId(first)));
        assertEquals(Map.of("v", 2), rows(byId(replaced.text("id"))).getFirst().get("payload"));

        Map<String, Object> stable = draft("custom", Map.of("v", 3));
        stable.put("feedback_id", replaced.text("id"));
        stable.put("id", replaced.text("id"));
        assertEquals(replaced.text("id"), weave.post("/feedback/replace", stable).text("id"), "id == feedback_id keeps the id");
    }

    @Test
    void anInvalidReplacementKeepsTheOldRow() {
        String id = weave.post("/feedback/create", draft("custom", Map.of("v", 1))).text("id");
        Map<String, Object> body = draft("wandb.note.1", Map.of("note", ""));
        body.put("feedback_id", id);
        assertEquals(400, weave.post("/feedback/replace", body).status());
        assertEquals(1, rows(byId(id)).size());
    }

    @Test
    void aReplacementWhoseIdBelongsToAnotherRowIsAConflictAndKeepsBothRows() {
        String old = weave.post("/feedback/create", draft("custom", Map.of("v", 1))).text("id");
        String other = weave.post("/feedback/create", draft("custom", Map.of("v", "other"))).text("id");
        Map<String, Object> body = draft("custom", Map.of("v", 2));
        body.put("feedback_id", old);
        body.put("id", other);
        Api.Reply refused = weave.post("/feedback/replace", body);
        assertEquals(409, refused.status(), refused.toString());
        assertEquals("id", refused.error().get("param"));
        assertEquals(Map.of("v", 1), rows(byId(old)).getFirst().get("payload"), "the row being replaced is intact");
        assertEquals(Map.of("v", "other"), rows(byId(other)).getFirst().get("payload"));
    }

    @Test
    void everyRefusedReplacementKeepsTheOldRow() {
        String id = weave.post("/feedback/create", draft("custom", Map.of("v", 1))).text("id");
        List<Map<String, Object>> refusals = new ArrayList<>();
        Map<String, Object> badType = draft("custom", Map.of("v", 2));
        badType.put("feedback_type", 7);
        refusals.add(badType);
        Map<String, Object> badPayload = draft("custom", Map.of());
        badPayload.put("payload", "not an object");
        refusals.add(badPayload);
        Map<String, Object> badId = draft("custom", Map.of("v", 2));
        badId.put("id", "not-a-uuid");
        refusals.add(badId);
        Map<String, Object> badNote = draft("wandb.note.1", Map.of("note", ""));
        refusals.add(badNote);
        for (Map<String, Object> body : refusals) {
            body.put("feedback_id", id);
            Api.Reply reply = weave.post("/feedback/replace", body);
            assertTrue(reply.status() >= 400 && reply.status() < 500, body + " -> " + reply);
            assertEquals(Map.of("v", 1), rows(byId(id)).getFirst().get("payload"), body + " left the old row");
        }
    }

    @Test
    void replacingAMissingRowActsAsCreate() {
        Map<String, Object> body = draft("custom", Map.of("v", 1));
        body.put("feedback_id", "00000000-0000-0000-0000-000000000000");
        Api.Reply reply = weave.post("/feedback/replace", body);
        assertEquals(200, reply.status(), reply.toString());
        assertEquals(1, rows(byId(reply.text("id"))).size());
    }

    @Test
    void reactionsGainTheirAliases() {
        Api.Reply reply = weave.post("/feedback/create", draft("wandb.reaction.1", Map.of("emoji", "👍🏽")));
        assertEquals(200, reply.status(), reply.toString());
        assertEquals(Map.of("emoji", "👍🏽", "alias", ":thumbs_up_medium_skin_tone:", "detoned", "👍",
                "detoned_alias", ":thumbs_up:"), reply.json().get("payload"));
    }

    @Test
    void typedPayloadFiltersAndSortingWork() {
        String project = "gina/typed";
        for (Map<String, Object> payload : List.of(Map.<String, Object>of("is_positive", true, "score", 0.9, "rank", 1),
                Map.<String, Object>of("is_positive", false, "score", 0.1, "rank", 2))) {
            Map<String, Object> body = draft("custom", payload);
            body.put("project_id", project);
            assertEquals(200, weave.post("/feedback/create", body).status());
        }
        Map<String, Object> eqFalse = Map.of("$eq", List.of(Map.of("$getField", "payload.is_positive"), Map.of("$literal", false)));
        Map<String, Object> gtScore = Map.of("$gt", List.of(Map.of("$getField", "payload.score"), Map.of("$literal", 0.5)));
        Map<String, Object> eqRank = Map.of("$eq", List.of(Map.of("$getField", "payload.rank"), Map.of("$literal", 2)));
        assertEquals(2L, rank(project, eqFalse));
        assertEquals(1L, rank(project, gtScore));
        assertEquals(2L, rank(project, eqRank));
        assertEquals(2L, rank(project, Map.of("$and", List.of(eqFalse, Map.of("$gt",
                List.of(Map.of("$getField", "payload.rank"), Map.of("$literal", 1)))))));

        Api.Reply sorted = weave.post("/feedback/query", Map.of("project_id", project, "fields", List.of("id", "payload.rank"),
                "sort_by", List.of(Map.of("field", "payload.rank", "direction", "desc")), "limit", 1));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> result = (List<Map<String, Object>>) sorted.json().get("result");
        assertEquals(1, result.size());
        assertEquals("2", result.getFirst().get("payload.rank"));
        assertEquals(2, result.getFirst().size());
    }

    private long rank(String project, Map<String, Object> expr) {
        Api.Reply reply = weave.post("/feedback/query", Map.of("project_id", project, "query", Map.of("$expr", expr)));
        assertEquals(200, reply.status(), reply.toString());
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> result = (List<Map<String, Object>>) reply.json().get("result");
        assertEquals(1, result.size(), result.toString());
        return ((Number) ((Map<?, ?>) result.getFirst().get("payload")).get("rank")).longValue();
    }

    @Test
    void purgeDeletesByIdOnlyAndIsSilentForUnknownIds() {
        String id = weave.post("/feedback/create", draft("custom", Map.of("v", 1))).text("id");
        Map<String, Object> bad = Map.of("project_id", PROJECT, "query",
                Map.of("$expr", Map.of("$eq", List.of(Map.of("$getField", "feedback_type"), Map.of("$literal", "custom")))));
        Api.Reply refused = weave.post("/feedback/purge", bad);
        assertEquals(400, refused.status());
        assertTrue(((String) refused.error().get("message")).contains("Can only purge feedback by specifying one or more feedback ids"));
        Map<String, Object> purge = new HashMap<>(byId(id));
        purge.put("project_id", PROJECT);
        Api.Reply purged = weave.post("/feedback/purge", purge);
        assertEquals(200, purged.status(), purged.toString());
        assertEquals(Map.of("checkpoints", List.of()), purged.json(), "no checkpoint learned from it");
        assertEquals(List.of(), rows(byId(id)));
        assertEquals(200, weave.post("/feedback/purge", purge).status());
    }

    @Test
    void anotherEntitysProjectIsNotFound() {
        assertEquals(404, other.post("/feedback/create", draft("custom", Map.of())).status());
        assertEquals(404, other.post("/feedback/query", Map.of("project_id", PROJECT)).status());
        assertEquals(404, other.post("/feedback/purge", Map.of("project_id", PROJECT, "query", byId(
                "00000000-0000-0000-0000-000000000000").get("query"))).status());
    }

    @Test
    void missingOrWrongCredentialsAreA401() {
        assertEquals(401, server.api(null).post("/feedback/create", draft("custom", Map.of())).status());
        assertEquals(401, server.api(null).withBasic("nope").post("/feedback/create", draft("custom", Map.of())).status());
    }

    /** A score annotation of {@code ref} with {@code payload}. */
    private static Map<String, Object> annotation(String ref, Map<String, Object> payload) {
        return Map.of("feedback_type", "wandb.annotation.score", "annotation_ref", ref, "payload", payload);
    }

    /** A judge runnable's feedback on {@code ref} with {@code payload}. */
    private static Map<String, Object> runnable(String ref, Map<String, Object> payload) {
        return Map.of("feedback_type", "wandb.runnable.judge", "runnable_ref", ref, "payload", payload);
    }

    static Stream<Arguments> invalidDrafts() {
        return Stream.of(
                Arguments.of("ref with only an entity", Map.of("weave_ref", "weave:///onlyentity"),
                        "Invalid ref: weave:///onlyentity, Invalid URI: weave:///onlyentity. Must have at least 3 parts"),
                Arguments.of("object ref without version", Map.of("weave_ref", "weave:///gina/proj/object/answer"),
                        "Invalid ref: weave:///gina/proj/object/answer, not enough values to unpack"),
                Arguments.of("empty note", Map.of("feedback_type", "wandb.note.1", "payload", Map.of("note", "")),
                        "Invalid payload for feedback_type wandb.note.1"),
                Arguments.of("no emoji", Map.of("feedback_type", "wandb.reaction.1", "payload", Map.of("emoji", "abc")),
                        "Value of emoji key in payload must be exactly one emoji"),
                Arguments.of("two emoji", Map.of("feedback_type", "wandb.reaction.1", "payload", Map.of("emoji", "👍👍")),
                        "Value of emoji key in payload must be exactly one emoji"),
                Arguments.of("annotation prefix", Map.of("feedback_type", "wandb.annotationX"),
                        "Invalid annotation feedback type: wandb.annotationX"),
                Arguments.of("annotation without ref", Map.of("feedback_type", "wandb.annotation.score"),
                        "annotation_ref is required for annotation feedback"),
                Arguments.of("annotation ref is a call", annotation("weave:///gina/proj/call/123", Map.of()),
                        "Invalid ref: weave:///gina/proj/call/123"),
                Arguments.of("annotation ref without digest", annotation("weave:///gina/proj/object/score", Map.of()),
                        "Invalid ref:"),
                Arguments.of("annotation name mismatch",
                        annotation("weave:///gina/proj/object/other:d1", Map.of("value", 1)),
                        "annotation_ref must point to an object with name score"),
                Arguments.of("annotation without value", annotation("weave:///gina/proj/object/score:d1", Map.of()),
                        "Invalid payload for feedback_type wandb.annotation.score"),
                Arguments.of("annotation ref elsewhere",
                        annotation("weave:///gina/else/object/score:d1", Map.of("value", 1)),
                        "does not match project id"),
                Arguments.of("annotation spec missing",
                        annotation("weave:///gina/proj/object/score:d1", Map.of("value", 1)),
                        "Annotation ref weave:///gina/proj/object/score:d1 not found"),
                Arguments.of("annotation ref on custom", Map.of("annotation_ref", "weave:///gina/proj/object/score:d1"),
                        "annotation_ref is not allowed for non-annotation feedback"),
                Arguments.of("runnable prefix", Map.of("feedback_type", "wandb.runnableX"), "Invalid runnable feedback type: wandb.runnableX"),
                Arguments.of("runnable without ref", Map.of("feedback_type", "wandb.runnable.judge"),
                        "runnable_ref is required for runnable feedback"),
                Arguments.of("runnable name mismatch", runnable("weave:///gina/proj/op/other:d1", Map.of("output", 1)),
                        "runnable_ref must point to an object with name judge"),
                Arguments.of("runnable op without call",
                        runnable("weave:///gina/proj/op/judge:d1", Map.of("output", 1)),
                        "call_ref is required for runnable feedback on ops"),
                Arguments.of("runnable without output", runnable("weave:///gina/proj/object/judge:d1", Map.of()),
                        "Invalid payload for feedback_type wandb.runnable.judge"),
                Arguments.of("runnable call ref is an object", Map.of("feedback_type", "wandb.runnable.judge",
                        "runnable_ref", "weave:///gina/proj/op/judge:d1", "call_ref", "weave:///gina/proj/object/x:d",
                        "payload", Map.of("output", 1)), "Invalid ref: weave:///gina/proj/object/x:d"),
                Arguments.of("runnable ref on custom", Map.of("runnable_ref", "weave:///gina/proj/op/judge:d1"),
                        "runnable_ref is not allowed for non-runnable feedback"),
                Arguments.of("call ref on custom", Map.of("call_ref", "weave:///gina/proj/call/1"),
                        "call_ref is not allowed for non-runnable feedback"),
                Arguments.of("trigger ref on custom", Map.of("trigger_ref", "weave:///gina/proj/object/t:d"),
                        "trigger_ref is not allowed for non-runnable feedback"),
                Arguments.of("unknown queue", Map.of("queue_id", "00000000-0000-0000-0000-000000000000"),
                        "Queue 00000000-0000-0000-0000-000000000000 not found or has been deleted"),
                Arguments.of("payload too large", Map.of("payload", Map.of("text", "x".repeat(1_048_600))),
                        "Feedback payload too large"),
                Arguments.of("client svc_user_id", Map.of("svc_user_id", "someone"), "svc_user_id"),
                Arguments.of("client wb_user_id", Map.of("wb_user_id", "someone"), "wb_user_id"),
                Arguments.of("id not a uuid", Map.of("id", "abc"), "id"),
                Arguments.of("unknown field", Map.of("colour", "red"), "colour"),
                Arguments.of("payload not an object", Map.of("payload", List.of(1)), "payload"));
    }

    @Test
    void aRefThatDoesNotParseIsRefusedNamingSvcRefWithEitherName() {
        for (String field : List.of("svc_ref", "weave_ref")) {
            Map<String, Object> body = draft("custom", Map.of());
            body.remove("weave_ref");
            body.put(field, "weave:///onlyentity");
            Api.Reply reply = weave.post("/feedback/create", body);
            assertEquals(400, reply.status(), reply.toString());
            assertEquals("svc_ref", reply.error().get("param"), reply.toString());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidDrafts")
    void everyValidationRefusesWithWeavesMessage(String name, Map<String, Object> change, String expected) {
        Map<String, Object> body = draft("custom", Map.of());
        body.putAll(change);
        Api.Reply reply = weave.post("/feedback/create", body);
        assertEquals(400, reply.status(), reply.toString());
        String message = (String) reply.error().get("message");
        assertTrue(message.contains(expected), "expected '" + expected + "' in '" + message + "'");
        body.put("feedback_id", "00000000-0000-0000-0000-000000000001");
        assertEquals(400, weave.post("/feedback/replace", body).status(), "replace validates the same way");
    }

    @Test
    void requiredFieldsAreNamed() {
        for (String field : List.of("project_id", "weave_ref", "feedback_type", "payload")) {
            Map<String, Object> body = draft("custom", Map.of());
            body.remove(field);
            Api.Reply reply = weave.post("/feedback/create", body);
            assertEquals(400, reply.status(), field);
        }
        assertEquals(400, weave.post("/feedback/replace", draft("custom", Map.of())).status(), "feedback_id is required");
        assertEquals(400, weave.post("/feedback/create", "{not json").status());
    }
}
