package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import dev.crucible.testsupport.concurrent.Await;
import dev.crucible.testsupport.database.TestDatabase;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Two server processes on one database: their runners share the queue and every job runs exactly once. */
class SharedDatabaseIT {

    @Test
    void twoRunnersRunEveryJobOnceAndStepsStayContiguous() {
        String db = TestDatabase.freshDatabase();
        Path dataDir = TestServer.newDataDir();
        Map<String, Object> instant = Map.of("test.trainer", "instant");
        try (TestServer a = TestServer.start(db, dataDir, instant); TestServer b = TestServer.start(db, dataDir, instant)) {
            String key = a.newKey("lena");
            Api viaA = a.api(key);
            Api viaB = b.api(key);
            List<String> models = IntStream.range(0, 3)
                    .mapToObj(i -> viaA.post("/v1/preview/models", RequestBodies.createModel("p", "m" + i)).text("id")).toList();
            List<String> jobs = new ArrayList<>();
            for (int round = 0; round < 4; round++) {
                for (String model : models) {
                    Api via = jobs.size() % 2 == 0 ? viaA : viaB;
                    jobs.add(via.post("/v1/preview/training-jobs", RequestBodies.rlJob(model)).text("id"));
                }
            }
            for (String job : jobs) {
                Await.until(() -> viaB.get("/v1/preview/training-jobs/" + job).text("status"), "COMPLETED"::equals,
                        Duration.ofSeconds(60));
                List<Object> types = viaA.get("/v1/preview/training-jobs/" + job + "/events").data().stream()
                        .map(e -> e.get("type")).toList();
                assertEquals(List.of("training_started", "gradient_step", "training_ended"), types, job);
            }
            for (String model : models) {
                List<Object> steps = viaA.get("/v1/preview/models/" + model + "/checkpoints?limit=100").data().stream()
                        .map(c -> ((Number) c.get("step")).intValue()).map(Object.class::cast).toList();
                assertEquals(List.of(0, 1, 2, 3, 4), steps, "one checkpoint per job, steps contiguous");
            }
        }
    }
}
