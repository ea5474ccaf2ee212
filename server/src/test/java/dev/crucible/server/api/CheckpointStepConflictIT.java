package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.application.job.JobQueue;
import dev.crucible.application.job.JobRunner;
import dev.crucible.application.job.JobStore;
import dev.crucible.application.job.RunnerSettings;
import dev.crucible.application.job.TrainingResult;
import dev.crucible.application.model.CheckpointStore;
import dev.crucible.domain.model.ModelId;
import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The step a job trained is the step its checkpoint gets; when the model gained that step while the job trained (an
 * adapter import), PostgreSQL's unique {@code (model_id, step)} refuses it and the job fails saying so, instead of
 * the checkpoint silently landing one step further than its adapter's files. The server's own runner is off, so this
 * test's runner is the one that claims the job.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CheckpointStepConflictIT {

    @AutoClose
    private final TestServer server = TestServer.start(Map.of("crucible.runner.enabled", "false"));
    private final Api api = server.api(server.newKey("bob"));

    private JobRunner runner(TrainingResult result) {
        return new JobRunner(server.bean(JobQueue.class), server.bean(JobStore.class), (job, spec, progress) -> result,
                Clock.systemUTC(), new RunnerSettings(Duration.ofMillis(10), Duration.ofMinutes(1),
                        Duration.ofMinutes(2)));
    }

    @Test
    void aJobWhoseTrainedStepWasTakenMeanwhileFailsWithAClearMessage() {
        String modelId = api.post("/v1/preview/models", RequestBodies.createModel("p", "conflict")).text("id");
        String jobId = api.post("/v1/preview/training-jobs", RequestBodies.rlJob(modelId)).text("id");
        // Another writer takes step 1 after the job's trainer chose it.
        server.bean(CheckpointStore.class).insertNext(new ModelId(UUID.fromString(modelId)), Clock.systemUTC()
                .instant(), step -> assertEquals(1, step));

        assertTrue(runner(new TrainingResult.Trained(1, Map.of("train/loss", 0.5))).runOnce());

        Map<String, Object> job = api.get("/v1/preview/training-jobs/" + jobId).json();
        String message = "training finished, but checkpoint step 1 of the model was written by someone else while "
                + "the job trained, so its adapter was not recorded; submit the job again";
        assertEquals("FAILED", job.get("status"), job.toString());
        assertEquals(message, job.get("error_message"));
        List<Map<String, Object>> events = api.get("/v1/preview/training-jobs/" + jobId + "/events").data();
        assertEquals(List.of("training_failed"), events.stream().map(e -> e.get("type")).toList());
        List<Map<String, Object>> checkpoints = api.get("/v1/preview/models/" + modelId + "/checkpoints").data();
        assertEquals(List.of(Map.of()), checkpoints.stream().filter(c -> ((Number) c.get("step")).intValue() == 1)
                .map(c -> c.get("metrics")).toList(), "step 1 keeps the other writer's checkpoint");
    }

    @Test
    void aJobRecordsTheStepItTrainedNotOneRecomputedAtTheEnd() {
        String modelId = api.post("/v1/preview/models", RequestBodies.createModel("p", "chosen")).text("id");
        String jobId = api.post("/v1/preview/training-jobs", RequestBodies.rlJob(modelId)).text("id");

        assertTrue(runner(new TrainingResult.Trained(3, Map.of("train/loss", 0.5))).runOnce());

        Map<String, Object> job = api.get("/v1/preview/training-jobs/" + jobId).json();
        assertEquals("COMPLETED", job.get("status"), job.toString());
        assertEquals(3, ((Number) job.get("result_step")).intValue());
    }
}
