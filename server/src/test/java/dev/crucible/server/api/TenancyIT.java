package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Another entity's resources answer 404 on every route, as if they did not exist. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TenancyIT {

    @AutoClose
    private final TestServer server = TestServer.start(Map.of());
    private final Api alice = server.api(server.newKey("alice"));
    private final Api mallory = server.api(server.newKey("mallory"));
    private final String model = alice.post("/v1/preview/models", RequestBodies.createModel("p", "secret")).text("id");
    private final String job = alice.post("/v1/preview/training-jobs", RequestBodies.rlJob(model)).text("id");

    @Test
    void anotherEntitysModelIsNotFoundOnEveryModelRoute() {
        String base = "/v1/preview/models/" + model;
        assertEquals(404, mallory.get(base + "/checkpoints").status());
        assertEquals(404, mallory.delete(base + "/checkpoints", Map.of("steps", List.of(0))).status());
        assertEquals(404, mallory.post(base + "/log", Map.of("split", "val",
                "trajectory_groups", RequestBodies.trajectoryGroups(0, 1))).status());
        assertEquals(404, mallory.post("/v1/preview/training-jobs", RequestBodies.rlJob(model)).status());
        assertEquals(404, mallory.delete(base, null).status());
        assertEquals(200, alice.get(base + "/checkpoints").status(), "nothing was deleted by the other entity");
    }

    @Test
    void anotherEntitysJobIsNotFound() {
        assertEquals(404, mallory.get("/v1/preview/training-jobs/" + job).status());
        assertEquals(404, mallory.get("/v1/preview/training-jobs/" + job + "/events").status());
        assertEquals(200, alice.get("/v1/preview/training-jobs/" + job).status());
    }

    @Test
    void servedModelsListOnlyTheCallersTrainedModels() {
        List<Object> ids = mallory.get("/v1/models").data().stream().map(m -> m.get("id")).toList();
        assertFalse(ids.contains("crucible:///alice/p/secret"));
    }

    @Test
    void creatingInAnotherEntityIsRefused() {
        Map<String, Object> body = new java.util.HashMap<>(RequestBodies.createModel("p", "x"));
        body.put("entity", "alice");
        Api.Reply reply = mallory.post("/v1/preview/models", body);
        assertEquals(400, reply.status());
        assertEquals("entity", reply.error().get("param"));
    }

    @Test
    void sameCoordinatesInTwoEntitiesAreTwoModels() {
        String mine = mallory.post("/v1/preview/models", RequestBodies.createModel("p", "secret")).text("id");
        assertFalse(mine.equals(model));
    }
}
