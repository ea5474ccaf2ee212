package dev.crucible.application.model;

import static dev.crucible.application.fakes.Fixtures.ACME;
import static dev.crucible.application.fakes.Fixtures.ACME_CALLER;
import static dev.crucible.application.fakes.Fixtures.CLOCK;
import static dev.crucible.application.fakes.Fixtures.GLOBEX_CALLER;
import static dev.crucible.application.fakes.Fixtures.NOW;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertRefused;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.application.fakes.Fixtures;
import dev.crucible.application.fakes.InMemoryCheckpointStore;
import dev.crucible.application.fakes.InMemoryJobStore;
import dev.crucible.application.fakes.InMemoryModelStore;
import dev.crucible.application.fakes.RecordingAdapterFiles;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.job.JobEvent;
import dev.crucible.domain.job.JobEventType;
import dev.crucible.domain.job.JobSpec;
import dev.crucible.domain.job.JobStatus;
import dev.crucible.domain.job.JobType;
import dev.crucible.domain.job.RlConfig;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.model.Checkpoint;
import dev.crucible.domain.model.CheckpointId;
import dev.crucible.domain.model.Model;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class DeleteModelServiceTest {

    private static final Instant EARLIER = NOW.minusSeconds(600);

    private final InMemoryCheckpointStore checkpoints = new InMemoryCheckpointStore();
    private final InMemoryModelStore models = new InMemoryModelStore(checkpoints);
    private final InMemoryJobStore jobs = new InMemoryJobStore();
    private final RecordingAdapterFiles adapters = new RecordingAdapterFiles();
    private final DeleteModelService service = new DeleteModelService(models, jobs, adapters, CLOCK);

    private Model modelWithSteps(int... steps) {
        Model model = models.add(Fixtures.model(ACME, "agent-" + UUID.randomUUID(), steps[steps.length - 1]));
        for (int step : steps) {
            checkpoints.add(new Checkpoint(CheckpointId.random(), model.id(), step, Map.of(), NOW));
        }
        return model;
    }

    private TrainingJob enqueue(Model model) {
        TrainingJob job = TrainingJob.queue(JobType.RL, model.id(), ACME, EARLIER);
        jobs.enqueue(job, new JobSpec.Rl(List.of(Fixtures.group(1, 0)), RlConfig.defaults()));
        return job;
    }

    @Test
    void deletesTheModelItsCheckpointsAndItsAdapterFiles() {
        Model model = modelWithSteps(0, 1, 2);
        DeleteModelUseCase.Deleted deleted = value(service.delete(new DeleteModelUseCase.Command(ACME_CALLER, model.id())));
        assertEquals(new DeleteModelUseCase.Deleted(model.id(), 3), deleted);
        assertFalse(models.contains(model.id()));
        assertEquals(List.of(), checkpoints.of(model.id()));
        assertEquals(List.of(model.id()), adapters.deletedModels());
    }

    @Test
    void cancelsQueuedAndRunningJobsWithTrainingFailedEvents() {
        Model model = modelWithSteps(0);
        TrainingJob queued = enqueue(model);
        TrainingJob running = enqueue(model).start(EARLIER, UUID.randomUUID());
        jobs.save(running);

        value(service.delete(new DeleteModelUseCase.Command(ACME_CALLER, model.id())));

        List<TrainingJob> cancelled = models.cancelledJobs();
        assertEquals(List.of(queued.id(), running.id()), cancelled.stream().map(TrainingJob::id).toList());
        assertEquals(new JobStatus.Cancelled(null, NOW, DeleteModelService.CANCEL_REASON), cancelled.get(0).status());
        assertEquals(new JobStatus.Cancelled(EARLIER, NOW, DeleteModelService.CANCEL_REASON), cancelled.get(1).status());
        List<JobEvent> events = models.cancelEvents();
        assertEquals(List.of(queued.id(), running.id()), events.stream().map(JobEvent::jobId).toList());
        for (JobEvent event : events) {
            assertEquals(JobEventType.TRAINING_FAILED, event.type());
            assertEquals(Map.of("error_message", "job cancelled: its model was deleted"), event.data());
            assertEquals(NOW, event.createdAt());
        }
    }

    @Test
    void leavesOtherModelsJobsAlone() {
        Model doomed = modelWithSteps(0);
        Model kept = modelWithSteps(0);
        enqueue(kept);
        value(service.delete(new DeleteModelUseCase.Command(ACME_CALLER, doomed.id())));
        assertEquals(List.of(), models.cancelledJobs());
        assertTrue(models.contains(kept.id()));
        assertEquals(1, checkpoints.of(kept.id()).size());
    }

    @Test
    void anotherEntitysModelIsNotFoundAndNothingIsDeleted() {
        Model model = modelWithSteps(0, 1);
        enqueue(model);
        String message = assertRefused(service.delete(new DeleteModelUseCase.Command(GLOBEX_CALLER, model.id())),
                Refusal.Reason.NOT_FOUND, "model_id");
        assertEquals("model " + model.id() + " not found", message);
        assertTrue(models.contains(model.id()));
        assertEquals(List.of(), adapters.deletedModels());
        assertEquals(List.of(), models.cancelledJobs());
    }
}
