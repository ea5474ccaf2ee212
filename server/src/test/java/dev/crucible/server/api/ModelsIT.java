package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import dev.crucible.testsupport.concurrent.Await;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Models and checkpoints over HTTP, with checkpoints made by jobs of a scripted test trainer. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ModelsIT {

    @AutoClose
    private final TestServer server = TestServer.start(Map.of("test.trainer", "instant"));
    private final Api api = server.api(server.newKey("alice"));

    private String createModel(String name) {
        Api.Reply reply = api.post("/v1/preview/models", RequestBodies.createModel("proj", name));
        assertEquals(200, reply.status(), reply.toString());
        return reply.text("id");
    }

    /** Runs one job through the scripted trainer, adding the model's next checkpoint. */
    private void train(String modelId) {
        Api.Reply job = api.post("/v1/preview/training-jobs", RequestBodies.rlJob(modelId));
        assertEquals(200, job.status(), job.toString());
        Await.until(() -> api.get("/v1/preview/training-jobs/" + job.text("id")).text("status"),
                "COMPLETED"::equals, Duration.ofSeconds(20));
    }

    @Test
    void createAnswersTheModelRecordWithTheKeysEntityAndStepZero() {
        Api.Reply reply = api.post("/v1/preview/models", RequestBodies.createModel("proj", "fresh"));
        assertEquals(200, reply.status());
        Map<String, Object> model = reply.json();
        assertEquals("model", model.get("object"));
        assertEquals("alice", model.get("entity"));
        assertEquals("proj", model.get("project"));
        assertEquals("fresh", model.get("name"));
        assertEquals(TestServer.BASE_MODEL, model.get("base_model"));
        assertTrue(model.containsKey("run_id"));
        assertNull(model.get("run_id"));
        assertEquals(0, ((Number) model.get("latest_step")).intValue());
        Api.Reply checkpoints = api.get("/v1/preview/models/" + model.get("id") + "/checkpoints?limit=1&order=desc");
        assertEquals(1, checkpoints.data().size());
        assertEquals(0, ((Number) checkpoints.data().getFirst().get("step")).intValue());
        assertEquals(Map.of(), checkpoints.data().getFirst().get("metrics"));
    }

    @Test
    void returnExistingAnswersTheSameModelAndDoesNotAddCheckpoints() {
        String first = createModel("twice");
        String second = createModel("twice");
        assertEquals(first, second);
        assertEquals(1, api.get("/v1/preview/models/" + first + "/checkpoints").data().size());
    }

    @Test
    void createWithoutReturnExistingIsAConflictWhenTheNameIsTaken() {
        createModel("taken");
        Map<String, Object> body = new java.util.HashMap<>(RequestBodies.createModel("proj", "taken"));
        body.put("return_existing", false);
        Api.Reply reply = api.post("/v1/preview/models", body);
        assertEquals(409, reply.status());
        assertEquals(409, ((Number) reply.error().get("code")).intValue());
    }

    @Test
    void returnExistingWithAnotherBaseModelIsAConflict() {
        createModel("based");
        Map<String, Object> body = new java.util.HashMap<>(RequestBodies.createModel("proj", "based"));
        body.put("base_model", TestServer.OTHER_BASE_MODEL);
        Api.Reply other = api.post("/v1/preview/models", body);
        assertEquals(409, other.status());
        assertEquals("base_model", other.error().get("param"));
        body.put("base_model", "not-served");
        Api.Reply unknown = api.post("/v1/preview/models", body);
        unknown.assertRefused(400, "base_model", TestServer.BASE_MODEL);
    }

    @Test
    void checkpointsPageThroughSeveralPagesInBothOrdersAndDelete() {
        String id = createModel("paged");
        for (int i = 0; i < 11; i++) {
            train(id);
        }
        List<Integer> asc = walk(id, "asc", 4);
        assertEquals(java.util.stream.IntStream.rangeClosed(0, 11).boxed().toList(), asc);
        List<Integer> desc = walk(id, "desc", 5);
        assertEquals(asc.reversed(), desc);

        Api.Reply deleted = api.delete("/v1/preview/models/" + id + "/checkpoints", Map.of("steps", List.of(1, 2, 3, 99)));
        assertEquals(200, deleted.status(), deleted.toString());
        assertEquals(3, ((Number) deleted.json().get("deleted_count")).intValue());
        assertEquals(List.of(99), deleted.json().get("not_found_steps"));
        Api.Reply again = api.delete("/v1/preview/models/" + id + "/checkpoints", Map.of("steps", List.of(1, 2, 3)));
        assertEquals(0, ((Number) again.json().get("deleted_count")).intValue());
        assertEquals(List.of(1, 2, 3), again.json().get("not_found_steps"));
        assertEquals(List.of(0, 4, 5, 6, 7, 8, 9, 10, 11), walk(id, "asc", 3));

        Api.Reply latest = api.delete("/v1/preview/models/" + id + "/checkpoints", Map.of("steps", List.of(11)));
        assertEquals(409, latest.status());
        assertEquals("steps", latest.error().get("param"));

        train(id);
        assertEquals(12, ((Number) walk(id, "desc", 1).getFirst()).intValue(), "steps are never reused");

        Api.Reply gone = api.delete("/v1/preview/models/" + id, null);
        assertEquals(200, gone.status());
        assertEquals(Map.of("model_id", id, "deleted_checkpoints", 10, "deleted_run", false), gone.json());
        assertEquals(404, api.get("/v1/preview/models/" + id + "/checkpoints").status());
        assertEquals(404, api.delete("/v1/preview/models/" + id, null).status());
    }

    /** Follows {@code has_more} and {@code after} like the OpenAI/ART cursor pager, collecting steps. */
    private List<Integer> walk(String modelId, String order, int limit) {
        List<Integer> steps = new ArrayList<>();
        String after = null;
        while (true) {
            String query = "?order=" + order + "&limit=" + limit + (after == null ? "" : "&after=" + after);
            Api.Reply page = api.get("/v1/preview/models/" + modelId + "/checkpoints" + query);
            assertEquals(200, page.status(), page.toString());
            assertEquals("list", page.json().get("object"));
            List<Map<String, Object>> data = page.data();
            assertTrue(data.size() <= limit);
            data.forEach(c -> steps.add(((Number) c.get("step")).intValue()));
            if (!data.isEmpty()) {
                assertEquals(data.getFirst().get("id"), page.json().get("first_id"));
                assertEquals(data.getLast().get("id"), page.json().get("last_id"));
            } else {
                assertEquals("", page.json().get("first_id"));
            }
            if (!(Boolean) page.json().get("has_more")) {
                return steps;
            }
            assertFalse(data.isEmpty());
            after = (String) data.getLast().get("id");
        }
    }

    @Test
    void logWritesSplitPrefixedAggregatesOntoTheLatestCheckpoint() {
        String id = createModel("logged");
        Api.Reply reply = api.post("/v1/preview/models/" + id + "/log",
                Map.of("model_id", id, "split", "val", "trajectory_groups", RequestBodies.trajectoryGroups(0.0, 1.0)));
        assertEquals(200, reply.status(), reply.toString());
        assertEquals(Map.of(), reply.json());
        Map<String, Object> metrics = (Map<String, Object>) api.get("/v1/preview/models/" + id
                + "/checkpoints?order=desc&limit=1").data().getFirst().get("metrics");
        assertEquals(0.5, ((Number) metrics.get("val/reward")).doubleValue(), 1e-9);
        assertEquals(0.5, ((Number) metrics.get("val/reward_std_dev")).doubleValue(), 1e-9);
        assertEquals(0.0, ((Number) metrics.get("val/exception_rate")).doubleValue(), 1e-9);
        assertEquals(0.5, ((Number) metrics.get("val/correct")).doubleValue(), 1e-9);
    }

    @Test
    void servedModelsListBaseModelsAndTheCallersTrainedModels() {
        createModel("listed");
        Api.Reply reply = api.get("/v1/models");
        assertEquals(200, reply.status());
        List<Object> ids = reply.data().stream().map(m -> m.get("id")).toList();
        assertTrue(ids.contains(TestServer.BASE_MODEL));
        assertTrue(ids.contains("crucible:///alice/proj/listed"), ids.toString());
        assertNotEquals(0, ids.size());
        Map<Object, Object> engines = reply.data().stream().collect(java.util.stream.Collectors.toMap(
                m -> m.get("id"), m -> String.valueOf(m.get("engine"))));
        assertTrue(List.of("djl", "onnx").contains(engines.get(TestServer.BASE_MODEL)), engines.toString());
        assertEquals(engines.get(TestServer.BASE_MODEL), engines.get("crucible:///alice/proj/listed"),
                "a trained model runs on its base model's engine");
    }

    @Test
    void aServedModelIsRetrievedByIdWithTheListsObject() {
        createModel("retrieved");
        List<Map<String, Object>> listed = api.get("/v1/models").data();
        for (String id : List.of(TestServer.BASE_MODEL, "crucible:///alice/proj/retrieved")) {
            Map<String, Object> entry = listed.stream().filter(m -> id.equals(m.get("id"))).findFirst().orElseThrow();
            Api.Reply raw = api.get("/v1/models/" + id);
            assertEquals(200, raw.status(), raw.toString());
            assertEquals(entry, raw.json());
            Api.Reply encoded = api.get("/v1/models/" + URLEncoder.encode(id, StandardCharsets.UTF_8));
            assertEquals(entry, encoded.json(), encoded.toString());
        }
        Api.Reply missing = api.get("/v1/models/no-such-model");
        assertEquals(404, missing.status());
        assertEquals("The model `no-such-model` does not exist.", missing.error().get("message"));
        assertEquals(404, server.api(server.newKey("mallory")).get("/v1/models/crucible:///alice/proj/retrieved")
                .status(), "another entity's model is not there");
    }
}
