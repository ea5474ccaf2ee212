package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.ChildServer;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import dev.crucible.testsupport.concurrent.Await;
import dev.crucible.testsupport.database.TestDatabase;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Restarts and crashes: data survives, and every job still ends with a terminal event. */
class LifecycleIT {

    @Test
    void aRestartKeepsModelsCheckpointsAndKeys() {
        String db = TestDatabase.freshDatabase();
        Path dataDir = TestServer.newDataDir();
        String key;
        String model;
        try (TestServer first = TestServer.start(db, dataDir, Map.of())) {
            key = first.newKey("dora");
            model = first.api(key).post("/v1/preview/models", RequestBodies.createModel("p", "kept")).text("id");
        }
        try (TestServer second = TestServer.start(db, dataDir, Map.of())) {
            Api api = second.api(key);
            Api.Reply checkpoints = api.get("/v1/preview/models/" + model + "/checkpoints");
            assertEquals(200, checkpoints.status(), "the key and the model survived the restart");
            assertEquals(1, checkpoints.data().size());
        }
    }

    @Test
    void theConfiguredKeyIsRegisteredAtStartOnceAndWorks() {
        String db = TestDatabase.freshDatabase();
        Path dataDir = TestServer.newDataDir();
        Map<String, Object> bootstrap = Map.of("crucible.bootstrap.api-key", "configured-key-1",
                "crucible.bootstrap.entity", "ivy");
        try (TestServer first = TestServer.start(db, dataDir, bootstrap)) {
            Api api = first.api("configured-key-1");
            assertEquals(200, api.get("/v1/models").status());
            assertEquals("ivy", api.post("/v1/preview/models", RequestBodies.createModel("p", "m")).text("entity"));
        }
        try (TestServer again = TestServer.start(db, dataDir, bootstrap)) {
            assertEquals(200, again.api("configured-key-1").get("/v1/models").status(), "a known key is kept");
        }
    }

    @Test
    void aJobOfAKilledServerEndsFailedWithATerminalEventAfterRestart() throws Exception {
        try (ChildServer.Started child = ChildServer.startFresh("erin")) {
            Api childApi = new Api(child.url(), child.key());
            String model = childApi.post("/v1/preview/models", RequestBodies.createModel("p", "crash")).text("id");
            String job = childApi.post("/v1/preview/training-jobs", RequestBodies.rlJob(model)).text("id");
            Await.until(() -> childApi.get("/v1/preview/training-jobs/" + job + "/events").data().size(),
                    n -> n >= 1, Duration.ofSeconds(20));
            assertEquals("RUNNING", childApi.get("/v1/preview/training-jobs/" + job).text("status"));

            child.kill(Duration.ofSeconds(20));

            try (TestServer restarted = TestServer.start(child.database(), child.dataDir(), Map.of())) {
                Api api = restarted.api(child.key());
                Map<String, Object> ended = Await.until(() -> api.get("/v1/preview/training-jobs/" + job).json(),
                        j -> "FAILED".equals(j.get("status")), Duration.ofSeconds(30));
                assertTrue(((String) ended.get("error_message")).contains("interrupted"), ended.toString());
                List<Object> types = api.get("/v1/preview/training-jobs/" + job + "/events").data().stream()
                        .map(e -> e.get("type")).toList();
                assertEquals(List.of("training_started", "training_failed"), types);
            }
        }
    }
}
