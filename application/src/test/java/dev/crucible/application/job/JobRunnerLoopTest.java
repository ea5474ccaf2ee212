package dev.crucible.application.job;

import static dev.crucible.application.fakes.Fixtures.ACME;
import static dev.crucible.application.fakes.Fixtures.CLOCK;
import static dev.crucible.application.fakes.Fixtures.NOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.application.fakes.Fixtures;
import dev.crucible.application.fakes.InMemoryJobEventStore;
import dev.crucible.application.fakes.InMemoryJobQueue;
import dev.crucible.application.fakes.InMemoryJobStore;
import dev.crucible.application.fakes.ScriptedTrainer;
import dev.crucible.domain.job.JobSpec;
import dev.crucible.domain.job.JobStatus;
import dev.crucible.domain.job.JobType;
import dev.crucible.domain.job.RlConfig;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.model.ModelId;
import dev.crucible.testsupport.concurrent.Await;
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
            ScriptedTrainer.returning(new TrainingResult.Trained(1, Map.of())), CLOCK, SETTINGS);

    private TrainingJob enqueue() {
        TrainingJob job = TrainingJob.queue(JobType.RL, ModelId.random(), ACME, NOW);
        jobs.enqueue(job, new JobSpec.Rl(List.of(Fixtures.group(1)), RlConfig.defaults()));
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
        assertClaimsOnceInAnHourLongInterval();
    }

    @Test
    void aFailedRoundWaitsThePollIntervalBeforeRetrying() throws InterruptedException {
        queue.failNextClaims(1);
        assertClaimsOnceInAnHourLongInterval();
    }

    /** A started loop that polls once an hour, once it has made its first claim. */
    private JobRunnerLoop waitingLoop() {
        JobRunnerLoop loop = new JobRunnerLoop(runner, Duration.ofHours(1));
        loop.start();
        assertTrue(Await.until(() -> queue.claimCalls() >= 1));
        return loop;
    }

    private void assertClaimsOnceInAnHourLongInterval() throws InterruptedException {
        try (JobRunnerLoop loop = waitingLoop()) {
            Thread.sleep(50);
            assertEquals(1, queue.claimCalls());
        }
    }

    @Test
    void closeEndsTheLoopThreadWhileItWaits() {
        waitingLoop().close();
        assertTrue(Await.until(() -> loopThread().isEmpty()));
    }

    @Test
    void closeEndsTheLoopThreadWhileItWaitsAfterAFailedRound() {
        queue.failNextClaims(1);
        waitingLoop().close();
        assertTrue(Await.until(() -> loopThread().isEmpty()));
    }

    @Test
    void stopHandsTheRunningJobBackToTheQueueAndEndsTheLoop() throws InterruptedException {
        TrainingJob job = enqueue();
        JobRunner stoppable = new JobRunner(queue, jobs, new ScriptedTrainer((j, s, progress) -> {
            progress.started(1, Map.of());
            Await.until(progress::cancelled);
            return new TrainingResult.Failed("the job was cancelled");
        }), CLOCK, SETTINGS);
        JobRunnerLoop loop = new JobRunnerLoop(stoppable, Duration.ofHours(1));
        loop.start();
        assertTrue(Await.until(() -> jobs.get(job.id()).status() instanceof JobStatus.Running));

        assertTrue(loop.stop(Duration.ofSeconds(10)), "the trainer stopped when asked");
        assertEquals(new JobStatus.Queued(), jobs.get(job.id()).status());
        assertFalse(loop.alive());
    }

    @Test
    void stopHandsBackAJobWhoseTrainerDoesNotStopInTime() throws InterruptedException {
        TrainingJob job = enqueue();
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        JobRunner stubborn = new JobRunner(queue, jobs, new ScriptedTrainer((j, s, progress) -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new TrainingResult.Trained(1, Map.of());
        }), CLOCK, SETTINGS);
        JobRunnerLoop loop = new JobRunnerLoop(stubborn, Duration.ofHours(1));
        loop.start();
        assertTrue(Await.until(() -> jobs.get(job.id()).status() instanceof JobStatus.Running));

        assertFalse(loop.stop(Duration.ofMillis(20)));
        assertEquals(new JobStatus.Queued(), jobs.get(job.id()).status());
        release.countDown();
        assertTrue(Await.until(() -> loopThread().isEmpty()));
        assertInstanceOf(JobStatus.Queued.class, jobs.get(job.id()).status(), "the late result changed nothing");
    }

    @Test
    void stopOfAnIdleLoopEndsItAtOnce() throws InterruptedException {
        JobRunnerLoop loop = waitingLoop();
        assertTrue(loop.stop(Duration.ofSeconds(10)));
        assertTrue(loopThread().isEmpty());
    }

    @Test
    void requiresRunnerAndPollInterval() {
        assertThrows(NullPointerException.class, () -> new JobRunnerLoop(null, Duration.ofMillis(1)));
        assertThrows(NullPointerException.class, () -> new JobRunnerLoop(runner, null));
    }
}
