package dev.crucible.application.job;

import static dev.crucible.application.fakes.Fixtures.ACME;
import static dev.crucible.application.fakes.Fixtures.CLOCK;
import static dev.crucible.application.fakes.Fixtures.NOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.application.fakes.Await;
import dev.crucible.application.fakes.Fixtures;
import dev.crucible.application.fakes.InMemoryJobEventStore;
import dev.crucible.application.fakes.InMemoryJobQueue;
import dev.crucible.application.fakes.InMemoryJobStore;
import dev.crucible.application.fakes.ScriptedTrainer;
import dev.crucible.domain.job.JobSpec;
import dev.crucible.domain.job.JobStatus;
import dev.crucible.domain.job.JobType;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.model.ModelId;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class JobRunnerLoopTest {

    private static final RunnerSettings SETTINGS = new RunnerSettings(Duration.ofMillis(1), Duration.ofMinutes(1),
            Duration.ofMinutes(2));

    private final InMemoryJobStore jobs = new InMemoryJobStore();
    private final InMemoryJobQueue queue = new InMemoryJobQueue(jobs, new InMemoryJobEventStore());
    private final JobRunner runner = new JobRunner(queue, jobs,
            ScriptedTrainer.returning(new TrainingResult.Trained(Map.of())), CLOCK, SETTINGS);

    private TrainingJob enqueue() {
        TrainingJob job = TrainingJob.queue(JobType.RL, ModelId.random(), ACME, NOW);
        jobs.enqueue(job, new JobSpec.Rl(List.of(Fixtures.group(1)), Map.of()));
        return job;
    }

    private boolean completed(TrainingJob job) {
        return jobs.get(job.id()).status() instanceof JobStatus.Completed;
    }

    @Test
    void isNotAliveBeforeStart() {
        try (JobRunnerLoop loop = new JobRunnerLoop(runner, Duration.ofMillis(1))) {
            assertFalse(loop.alive());
        }
    }

    @Test
    void runsQueuedJobsUntilClosed() {
        TrainingJob job = enqueue();
        JobRunnerLoop loop = new JobRunnerLoop(runner, Duration.ofMillis(1));
        loop.start();
        assertTrue(Await.until(() -> completed(job)));
        assertTrue(loop.alive());
        loop.close();
        assertFalse(loop.alive());
    }

    @Test
    void runsBackToBackJobsWithoutWaitingForThePollInterval() {
        TrainingJob first = enqueue();
        TrainingJob second = enqueue();
        try (JobRunnerLoop loop = new JobRunnerLoop(runner, Duration.ofHours(1))) {
            loop.start();
            assertTrue(Await.until(() -> completed(first) && completed(second)));
        }
    }

    @Test
    void aFailedRoundIsRetriedAndTheLoopStaysAlive() {
        queue.failNextClaims(3);
        TrainingJob job = enqueue();
        try (JobRunnerLoop loop = new JobRunnerLoop(runner, Duration.ofMillis(1))) {
            loop.start();
            assertTrue(Await.until(() -> completed(job)));
            assertTrue(loop.alive());
        }
    }

    private Optional<Thread> loopThread() {
        String name = "job-runner-" + runner.runnerId();
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(name)).findFirst();
    }

    @Test
    void runsOnADaemonThreadNamedForTheRunner() {
        try (JobRunnerLoop loop = new JobRunnerLoop(runner, Duration.ofHours(1))) {
            loop.start();
            assertTrue(Await.until(() -> loopThread().isPresent()));
            assertTrue(loopThread().orElseThrow().isDaemon());
        }
    }

    @Test
    void anEmptyQueueIsPolledOncePerInterval() throws InterruptedException {
        try (JobRunnerLoop loop = new JobRunnerLoop(runner, Duration.ofHours(1))) {
            loop.start();
            assertTrue(Await.until(() -> queue.claimCalls() >= 1));
            Thread.sleep(50);
            assertEquals(1, queue.claimCalls());
        }
    }

    @Test
    void aFailedRoundWaitsThePollIntervalBeforeRetrying() throws InterruptedException {
        queue.failNextClaims(1);
        try (JobRunnerLoop loop = new JobRunnerLoop(runner, Duration.ofHours(1))) {
            loop.start();
            assertTrue(Await.until(() -> queue.claimCalls() >= 1));
            Thread.sleep(50);
            assertEquals(1, queue.claimCalls());
        }
    }

    @Test
    void closeEndsTheLoopThreadWhileItWaits() {
        JobRunnerLoop loop = new JobRunnerLoop(runner, Duration.ofHours(1));
        loop.start();
        assertTrue(Await.until(() -> queue.claimCalls() >= 1));
        loop.close();
        assertTrue(Await.until(() -> loopThread().isEmpty()));
    }

    @Test
    void closeEndsTheLoopThreadWhileItWaitsAfterAFailedRound() {
        queue.failNextClaims(1);
        JobRunnerLoop loop = new JobRunnerLoop(runner, Duration.ofHours(1));
        loop.start();
        assertTrue(Await.until(() -> queue.claimCalls() >= 1));
        loop.close();
        assertTrue(Await.until(() -> loopThread().isEmpty()));
    }

    @Test
    void requiresRunnerAndPollInterval() {
        assertThrows(NullPointerException.class, () -> new JobRunnerLoop(null, Duration.ofMillis(1)));
        assertThrows(NullPointerException.class, () -> new JobRunnerLoop(runner, null));
    }
}
