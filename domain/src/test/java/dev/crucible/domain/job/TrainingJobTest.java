package dev.crucible.domain.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.EntityName;
import java.time.Instant;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class TrainingJobTest {

    private static final Instant QUEUED_AT = Instant.parse("2025-03-01T10:00:00Z");
    private static final Instant STARTED_AT = Instant.parse("2025-03-01T10:01:00Z");
    private static final Instant ENDED_AT = Instant.parse("2025-03-01T10:05:00Z");
    private static final UUID RUNNER = UUID.fromString("00000000-0000-0000-0000-0000000000aa");
    private static final ModelId MODEL = ModelId.random();
    private static final EntityName ACME = new EntityName("acme");

    private static TrainingJob queued() {
        return TrainingJob.queue(JobType.RL, MODEL, ACME, QUEUED_AT);
    }

    private static TrainingJob running() {
        return queued().start(STARTED_AT, RUNNER);
    }

    private static void assertIllegal(TrainingJob job, String transition, UnaryOperator<TrainingJob> move) {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> move.apply(job));
        assertEquals("cannot " + transition + " job " + job.id() + " in state " + job.status().wireName(), e.getMessage());
    }

    @Test
    void aRunningJobGoesBackToTheQueueAsIfNeverClaimed() {
        TrainingJob job = running();
        TrainingJob requeued = job.requeue();
        assertEquals(new JobStatus.Queued(), requeued.status());
        assertEquals(new TrainingJob(job.id(), JobType.RL, MODEL, ACME, new JobStatus.Queued(), QUEUED_AT), requeued);
    }

    @Test
    void onlyARunningJobGoesBackToTheQueue() {
        assertIllegal(queued(), "requeue", TrainingJob::requeue);
        assertIllegal(running().complete(ENDED_AT, 1), "requeue", TrainingJob::requeue);
        assertIllegal(running().fail(ENDED_AT, "boom"), "requeue", TrainingJob::requeue);
    }

    @Test
    void queueCreatesAQueuedJob() {
        TrainingJob job = queued();
        assertEquals(new JobStatus.Queued(), job.status());
        assertEquals(JobType.RL, job.type());
        assertEquals(MODEL, job.modelId());
        assertEquals(ACME, job.entity());
        assertEquals(QUEUED_AT, job.createdAt());
    }

    @Test
    void aQueuedJobStartsUnderItsRunner() {
        TrainingJob job = queued();
        TrainingJob started = job.start(STARTED_AT, RUNNER);
        assertEquals(new JobStatus.Running(STARTED_AT, RUNNER), started.status());
        assertEquals(new TrainingJob(job.id(), JobType.RL, MODEL, ACME, started.status(), QUEUED_AT), started);
    }

    @Test
    void aRunningJobCompletesWithItsStep() {
        TrainingJob job = running().complete(ENDED_AT, 4);
        assertEquals(new JobStatus.Completed(STARTED_AT, ENDED_AT, 4), job.status());
        assertEquals(QUEUED_AT, job.createdAt());
    }

    @Test
    void aQueuedJobFailsWithoutAStartTime() {
        assertEquals(new JobStatus.Failed(null, ENDED_AT, "boom"), queued().fail(ENDED_AT, "boom").status());
    }

    @Test
    void aRunningJobFailsKeepingItsStartTime() {
        assertEquals(new JobStatus.Failed(STARTED_AT, ENDED_AT, "boom"), running().fail(ENDED_AT, "boom").status());
    }

    @Test
    void aQueuedJobIsCancelledWithoutAStartTime() {
        assertEquals(new JobStatus.Cancelled(null, ENDED_AT, "gone"), queued().cancel(ENDED_AT, "gone").status());
    }

    @Test
    void aRunningJobIsCancelledKeepingItsStartTime() {
        TrainingJob cancelled = running().cancel(ENDED_AT, "gone");
        assertEquals(new JobStatus.Cancelled(STARTED_AT, ENDED_AT, "gone"), cancelled.status());
        assertEquals(MODEL, cancelled.modelId());
    }

    @Test
    void onlyAQueuedJobCanStart() {
        assertIllegal(running(), "start", j -> j.start(ENDED_AT, RUNNER));
        assertIllegal(running().complete(ENDED_AT, 1), "start", j -> j.start(ENDED_AT, RUNNER));
        assertIllegal(queued().fail(ENDED_AT, "x"), "start", j -> j.start(ENDED_AT, RUNNER));
        assertIllegal(queued().cancel(ENDED_AT, "x"), "start", j -> j.start(ENDED_AT, RUNNER));
    }

    @Test
    void onlyARunningJobCanComplete() {
        assertIllegal(queued(), "complete", j -> j.complete(ENDED_AT, 1));
        assertIllegal(running().complete(ENDED_AT, 1), "complete", j -> j.complete(ENDED_AT, 2));
        assertIllegal(running().fail(ENDED_AT, "x"), "complete", j -> j.complete(ENDED_AT, 1));
        assertIllegal(running().cancel(ENDED_AT, "x"), "complete", j -> j.complete(ENDED_AT, 1));
    }

    @Test
    void anEndedJobCannotFail() {
        assertIllegal(running().complete(ENDED_AT, 1), "fail", j -> j.fail(ENDED_AT, "x"));
        assertIllegal(running().fail(ENDED_AT, "x"), "fail", j -> j.fail(ENDED_AT, "y"));
        assertIllegal(running().cancel(ENDED_AT, "x"), "fail", j -> j.fail(ENDED_AT, "y"));
    }

    @Test
    void anEndedJobCannotBeCancelled() {
        assertIllegal(running().complete(ENDED_AT, 1), "cancel", j -> j.cancel(ENDED_AT, "x"));
        assertIllegal(queued().fail(ENDED_AT, "x"), "cancel", j -> j.cancel(ENDED_AT, "y"));
        assertIllegal(queued().cancel(ENDED_AT, "x"), "cancel", j -> j.cancel(ENDED_AT, "y"));
    }

    @Test
    void rejectsNullFields() {
        JobId id = JobId.random();
        JobStatus q = new JobStatus.Queued();
        assertThrows(NullPointerException.class, () -> new TrainingJob(null, JobType.RL, MODEL, ACME, q, QUEUED_AT));
        assertThrows(NullPointerException.class, () -> new TrainingJob(id, null, MODEL, ACME, q, QUEUED_AT));
        assertThrows(NullPointerException.class, () -> new TrainingJob(id, JobType.RL, null, ACME, q, QUEUED_AT));
        assertThrows(NullPointerException.class, () -> new TrainingJob(id, JobType.RL, MODEL, null, q, QUEUED_AT));
        assertThrows(NullPointerException.class, () -> new TrainingJob(id, JobType.RL, MODEL, ACME, null, QUEUED_AT));
        assertThrows(NullPointerException.class, () -> new TrainingJob(id, JobType.RL, MODEL, ACME, q, null));
    }
}
