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
import dev.crucible.application.fakes.MutableClock;
import dev.crucible.application.fakes.ScriptedTrainer;
import dev.crucible.domain.job.JobEvent;
import dev.crucible.domain.job.JobEventType;
import dev.crucible.domain.job.JobSpec;
import dev.crucible.domain.job.JobStatus;
import dev.crucible.domain.job.JobType;
import dev.crucible.domain.job.RlConfig;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.model.ModelId;
import dev.crucible.testsupport.concurrent.Await;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

class JobRunnerTest {

    /** Heartbeats too rare to fire during a test. */
    private static final RunnerSettings QUIET = new RunnerSettings(Duration.ofMillis(10), Duration.ofMinutes(1),
            Duration.ofMinutes(2));
    /** A heartbeat every millisecond. */
    private static final RunnerSettings BUSY = new RunnerSettings(Duration.ofMillis(1), Duration.ofMillis(1),
            Duration.ofMinutes(2));
    private static final JobSpec.Rl SPEC = new JobSpec.Rl(List.of(Fixtures.group(1, 0)), RlConfig.defaults());

    private final InMemoryJobStore jobs = new InMemoryJobStore();
    private final InMemoryJobEventStore events = new InMemoryJobEventStore();
    private final InMemoryJobQueue queue = new InMemoryJobQueue(jobs, events);

    private JobRunner runner(ScriptedTrainer trainer, RunnerSettings settings) {
        return new JobRunner(queue, jobs, trainer, CLOCK, settings);
    }

    private TrainingJob enqueue() {
        TrainingJob job = TrainingJob.queue(JobType.RL, ModelId.random(), ACME, NOW.minusSeconds(60));
        jobs.enqueue(job, SPEC);
        return job;
    }

    private List<JobEventType> eventTypes(TrainingJob job) {
        return events.of(job.id()).stream().map(JobEvent::type).toList();
    }

    /**
     * A runner after one round whose trainer ran {@code script} with the runner itself, as the shutdown acts on it
     * from its own thread while the job trains.
     */
    private JobRunner runOnceActingOnTheRunner(BiFunction<JobRunner, TrainingProgress, TrainingResult> script) {
        JobRunner[] runner = new JobRunner[1];
        runner[0] = runner(new ScriptedTrainer((j, s, progress) -> script.apply(runner[0], progress)), QUIET);
        runner[0].runOnce();
        return runner[0];
    }

    /** Takes {@code job} away from its runner, as deleting its model does. */
    private void takeAway(TrainingJob job) {
        jobs.save(jobs.get(job.id()).cancel(NOW, "model deleted"));
    }

    @Test
    void anEmptyQueueRunsNothing() {
        ScriptedTrainer trainer = ScriptedTrainer.returning(new TrainingResult.Trained(1, Map.of()));
        assertFalse(runner(trainer, QUIET).runOnce());
        assertEquals(List.of(), trainer.calls());
    }

    @Test
    void claimsAJobAndRunsItUnderThisRunner() {
        TrainingJob job = enqueue();
        ScriptedTrainer trainer = ScriptedTrainer.returning(new TrainingResult.Trained(1, Map.of("train/loss", 0.1)));
        JobRunner runner = runner(trainer, QUIET);

        assertTrue(runner.runOnce());

        ScriptedTrainer.Call call = trainer.calls().getFirst();
        assertEquals(job.id(), call.job().id());
        assertEquals(new JobStatus.Running(NOW, runner.runnerId()), call.job().status());
        assertEquals(SPEC, call.spec());
    }

    @Test
    void aTrainedResultCompletesTheJobWithItsMetrics() {
        TrainingJob job = enqueue();
        runner(ScriptedTrainer.returning(new TrainingResult.Trained(1, Map.of("train/loss", 0.1))), QUIET).runOnce();

        assertEquals(new JobStatus.Completed(NOW, NOW, 1), jobs.get(job.id()).status());
        assertEquals(Map.of("train/loss", 0.1), queue.completions().getFirst().metrics());
        assertEquals(List.of(JobEventType.TRAINING_ENDED), eventTypes(job));
    }

    @Test
    void aTrainedStepTakenMeanwhileFailsTheJobSayingSoInsteadOfRecordingAnotherStep() {
        TrainingJob job = enqueue();
        queue.takeStep(job.modelId(), 1);

        runner(ScriptedTrainer.returning(new TrainingResult.Trained(1, Map.of("train/loss", 0.1))), QUIET).runOnce();

        String message = "training finished, but checkpoint step 1 of the model was written by someone else while "
                + "the job trained, so its adapter was not recorded; submit the job again";
        assertEquals(new JobStatus.Failed(NOW, NOW, message), jobs.get(job.id()).status());
        assertEquals(List.of(), queue.completions());
        assertEquals(List.of(JobEventType.TRAINING_FAILED), eventTypes(job));
        assertEquals(message, events.of(job.id()).getFirst().data().get("error_message"));
    }

    @Test
    void runsOneJobPerRound() {
        TrainingJob first = enqueue();
        TrainingJob second = enqueue();
        ScriptedTrainer trainer = ScriptedTrainer.returning(new TrainingResult.Trained(1, Map.of()));
        JobRunner runner = runner(trainer, QUIET);

        runner.runOnce();

        assertEquals(1, trainer.calls().size());
        assertInstanceOf(JobStatus.Completed.class, jobs.get(first.id()).status());
        assertEquals(new JobStatus.Queued(), jobs.get(second.id()).status());
    }

    @Test
    void aFailedResultWritesTrainingFailedAndFailsTheJob() {
        TrainingJob job = enqueue();
        runner(ScriptedTrainer.returning(new TrainingResult.Failed("the dataset is empty")), QUIET).runOnce();

        assertEquals(new JobStatus.Failed(NOW, NOW, "the dataset is empty"), jobs.get(job.id()).status());
        List<JobEvent> written = events.of(job.id());
        assertEquals(1, written.size());
        assertEquals(JobEventType.TRAINING_FAILED, written.getFirst().type());
        assertEquals(Map.of("error_message", "the dataset is empty"), written.getFirst().data());
        assertEquals(NOW, written.getFirst().createdAt());
    }

    @Test
    void aTrainerThatThrowsFailsTheJobWithAGenericMessage() {
        TrainingJob job = enqueue();
        runner(new ScriptedTrainer((j, s, p) -> {
            throw new IllegalStateException("index 7 out of bounds in /secret/path");
        }), QUIET).runOnce();

        assertEquals(new JobStatus.Failed(NOW, NOW, "training failed because of an internal error"),
                jobs.get(job.id()).status());
        assertEquals(Map.of("error_message", JobRunner.CRASHED), events.of(job.id()).getFirst().data());
    }

    @Test
    void aJobWhoseInputIsGoneFailsWithoutTraining() {
        TrainingJob job = TrainingJob.queue(JobType.SFT, ModelId.random(), ACME, NOW);
        jobs.save(job);
        ScriptedTrainer trainer = ScriptedTrainer.returning(new TrainingResult.Trained(1, Map.of()));

        assertTrue(runner(trainer, QUIET).runOnce());

        assertEquals(List.of(), trainer.calls());
        assertEquals(new JobStatus.Failed(NOW, NOW, "the job's input is missing"), jobs.get(job.id()).status());
    }

    @Test
    void progressIsWrittenAsEventsWithNumSequencesAndNumGradientSteps() {
        TrainingJob job = enqueue();
        AtomicBoolean cancelledSeen = new AtomicBoolean(true);
        runner(new ScriptedTrainer((j, s, progress) -> {
            progress.started(4, Map.of("num_trajectories", 8));
            progress.gradientStep(Map.of("loss", 0.25, "grad_norm", 1));
            cancelledSeen.set(progress.cancelled());
            return new TrainingResult.Trained(1, Map.of());
        }), QUIET).runOnce();

        List<JobEvent> written = events.of(job.id());
        assertEquals(List.of(JobEventType.TRAINING_STARTED, JobEventType.GRADIENT_STEP, JobEventType.TRAINING_ENDED),
                written.stream().map(JobEvent::type).toList());
        assertEquals(Map.of("num_trajectories", 8, "num_sequences", 4, "num_gradient_steps", 4), written.get(0).data());
        assertEquals(Map.of("loss", 0.25, "grad_norm", 1), written.get(1).data());
        assertEquals(NOW, written.get(0).createdAt());
        assertFalse(cancelledSeen.get());
    }

    @Test
    void aRefusedProgressWriteTurnsCancelledTrueAndStopsFurtherWrites() {
        TrainingJob job = enqueue();
        AtomicBoolean cancelledSeen = new AtomicBoolean(false);
        runner(new ScriptedTrainer((j, s, progress) -> {
            takeAway(j);
            progress.started(2, Map.of());
            cancelledSeen.set(progress.cancelled());
            progress.gradientStep(Map.of("loss", 1.0));
            return new TrainingResult.Failed("stopped");
        }), QUIET).runOnce();

        assertTrue(cancelledSeen.get());
        assertEquals(1, queue.progressCalls());
        assertEquals(List.of(), eventTypes(job));
        assertInstanceOf(JobStatus.Cancelled.class, jobs.get(job.id()).status());
    }

    @Test
    void stoppingTellsTheTrainerToStopAndHandsTheJobBackToTheQueueWithItsEvent() {
        TrainingJob job = enqueue();
        AtomicBoolean cancelledSeen = new AtomicBoolean(false);
        runOnceActingOnTheRunner((runner, progress) -> {
            progress.started(3, Map.of());
            runner.stop(); // what the shutdown does from its own thread
            cancelledSeen.set(progress.cancelled());
            return new TrainingResult.Failed("the job was cancelled");
        });

        assertTrue(cancelledSeen.get());
        assertEquals(new JobStatus.Queued(), jobs.get(job.id()).status());
        assertEquals(List.of(JobEventType.TRAINING_STARTED, JobEventType.TRAINING_REQUEUED), eventTypes(job));
        assertEquals(Map.of("reason", JobRunner.REQUEUED), events.of(job.id()).get(1).data());
    }

    @Test
    void aJobHandedBackByAStoppingRunnerIsTrainedAgainByTheNextRunnerFromTheStart() {
        TrainingJob job = enqueue();
        runOnceActingOnTheRunner((runner, progress) -> {
            progress.started(3, Map.of());
            progress.gradientStep(Map.of("loss", 1.0));
            runner.stop();
            return new TrainingResult.Failed("the job was cancelled");
        });
        JobRunner next = runner(ScriptedTrainer.returning(new TrainingResult.Trained(1, Map.of("loss", 0.5))), QUIET);

        assertTrue(next.runOnce(), "the next runner claims the job handed back");
        assertEquals(new JobStatus.Completed(NOW, NOW, 1), jobs.get(job.id()).status());
        assertEquals(List.of(JobEventType.TRAINING_STARTED, JobEventType.GRADIENT_STEP,
                JobEventType.TRAINING_REQUEUED, JobEventType.TRAINING_ENDED), eventTypes(job));
    }

    @Test
    void aStoppedRunnerClaimsNothing() {
        TrainingJob job = enqueue();
        JobRunner runner = runner(ScriptedTrainer.returning(new TrainingResult.Trained(1, Map.of())), QUIET);
        runner.stop();

        assertFalse(runner.runOnce());
        assertInstanceOf(JobStatus.Queued.class, jobs.get(job.id()).status());
    }

    @Test
    void requeueInterruptedHandsTheRunningJobBackAndItsTrainersLateResultIsIgnored() {
        TrainingJob job = enqueue();
        AtomicBoolean ended = new AtomicBoolean(false);
        JobRunner runner = runOnceActingOnTheRunner((self, progress) -> {
            progress.started(1, Map.of());
            ended.set(self.requeueInterrupted()); // the shutdown gave up waiting for this trainer
            return new TrainingResult.Trained(1, Map.of("loss", 0.1));
        });

        assertTrue(ended.get());
        assertEquals(new JobStatus.Queued(), jobs.get(job.id()).status());
        assertEquals(List.of(JobEventType.TRAINING_STARTED, JobEventType.TRAINING_REQUEUED), eventTypes(job));
        assertFalse(runner.requeueInterrupted(), "no job runs any more");
    }

    @Test
    void aLostHeartbeatTurnsCancelledTrue() {
        enqueue();
        AtomicBoolean cancelledSeen = new AtomicBoolean(false);
        runner(new ScriptedTrainer((j, s, progress) -> {
            takeAway(j);
            cancelledSeen.set(Await.until(progress::cancelled));
            return new TrainingResult.Failed("stopped");
        }), BUSY).runOnce();

        assertTrue(cancelledSeen.get());
    }

    @Test
    void heartbeatsAreSentWhileTraining() {
        TrainingJob job = enqueue();
        AtomicBoolean beaten = new AtomicBoolean(false);
        runner(new ScriptedTrainer((j, s, progress) -> {
            beaten.set(Await.until(() -> queue.heartbeatCalls() >= 3));
            return new TrainingResult.Trained(1, Map.of());
        }), BUSY).runOnce();

        assertTrue(beaten.get());
        assertInstanceOf(JobStatus.Completed.class, jobs.get(job.id()).status());
    }

    @Test
    void heartbeatsRunOnADaemonThreadNamedForTheJob() {
        TrainingJob job = enqueue();
        runner(new ScriptedTrainer((j, s, progress) -> {
            Await.until(() -> queue.heartbeatCalls() >= 1);
            return new TrainingResult.Trained(1, Map.of());
        }), BUSY).runOnce();

        Thread beat = queue.heartbeatThreads().getFirst();
        assertEquals("job-heartbeat-" + job.id(), beat.getName());
        assertTrue(beat.isDaemon());
    }

    @Test
    void aFailingHeartbeatWriteIsRetriedNotTakenAsLoss() {
        enqueue();
        queue.failNextHeartbeats(3);
        AtomicBoolean cancelledSeen = new AtomicBoolean(true);
        runner(new ScriptedTrainer((j, s, progress) -> {
            Await.until(() -> queue.heartbeatCalls() >= 6);
            cancelledSeen.set(progress.cancelled());
            return new TrainingResult.Trained(1, Map.of());
        }), BUSY).runOnce();

        assertTrue(queue.heartbeatCalls() >= 6);
        assertFalse(cancelledSeen.get());
    }

    @Test
    void heartbeatsStopWhenTheJobEnds() throws InterruptedException {
        enqueue();
        runner(new ScriptedTrainer((j, s, progress) -> {
            Await.until(() -> queue.heartbeatCalls() >= 2);
            return new TrainingResult.Trained(1, Map.of());
        }), BUSY).runOnce();

        Thread.sleep(20);
        int afterRun = queue.heartbeatCalls();
        Thread.sleep(60);
        assertEquals(afterRun, queue.heartbeatCalls());
    }

    @Test
    void staleJobsAreFailedWithTheOrphanMessage() {
        UUID deadRunner = UUID.randomUUID();
        Instant startedAt = NOW.minus(Duration.ofMinutes(30));
        TrainingJob stale = queue.running(enqueue(), deadRunner, startedAt, NOW.minus(Duration.ofMinutes(10)));
        TrainingJob fresh = queue.running(enqueue(), UUID.randomUUID(), startedAt, NOW.minus(Duration.ofSeconds(30)));

        assertEquals(1, runner(ScriptedTrainer.returning(new TrainingResult.Trained(1, Map.of())), QUIET).failStaleJobs());

        assertEquals(new JobStatus.Failed(startedAt, NOW, JobRunner.ORPHANED), jobs.get(stale.id()).status());
        assertTrue(JobRunner.ORPHANED.startsWith("training was interrupted"));
        JobEvent event = events.of(stale.id()).getFirst();
        assertEquals(JobEventType.TRAINING_FAILED, event.type());
        assertEquals(Map.of("error_message", JobRunner.ORPHANED), event.data());
        assertEquals(fresh.status(), jobs.get(fresh.id()).status());
    }

    @Test
    void aStaleJobEndedElsewhereIsNotCounted() {
        queue.running(enqueue(), UUID.randomUUID(), NOW.minus(Duration.ofMinutes(30)), NOW.minus(Duration.ofMinutes(10)));
        queue.refuseEnds();
        assertEquals(0, runner(ScriptedTrainer.returning(new TrainingResult.Trained(1, Map.of())), QUIET).failStaleJobs());
    }

    @Test
    void eachRoundFailsStaleJobsFirst() {
        TrainingJob stale = queue.running(enqueue(), UUID.randomUUID(), NOW.minus(Duration.ofMinutes(30)),
                NOW.minus(Duration.ofMinutes(10)));
        assertFalse(runner(ScriptedTrainer.returning(new TrainingResult.Trained(1, Map.of())), QUIET).runOnce());
        assertInstanceOf(JobStatus.Failed.class, jobs.get(stale.id()).status());
    }

    @Test
    void lastRoundIsWhenTheLatestRoundEnded() {
        MutableClock clock = new MutableClock(NOW);
        JobRunner runner = new JobRunner(queue, jobs, ScriptedTrainer.returning(new TrainingResult.Trained(1, Map.of())),
                clock, QUIET);
        assertEquals(NOW, runner.lastRound());
        clock.advance(Duration.ofSeconds(5));
        runner.runOnce();
        assertEquals(NOW.plusSeconds(5), runner.lastRound());
    }

    @Test
    void eachRunnerHasItsOwnId() {
        ScriptedTrainer trainer = ScriptedTrainer.returning(new TrainingResult.Trained(1, Map.of()));
        assertFalse(runner(trainer, QUIET).runnerId().equals(runner(trainer, QUIET).runnerId()));
    }

    @Test
    void requiresItsCollaborators() {
        ScriptedTrainer trainer = ScriptedTrainer.returning(new TrainingResult.Trained(1, Map.of()));
        assertThrows(NullPointerException.class, () -> new JobRunner(null, jobs, trainer, CLOCK, QUIET));
        assertThrows(NullPointerException.class, () -> new JobRunner(queue, null, trainer, CLOCK, QUIET));
        assertThrows(NullPointerException.class, () -> new JobRunner(queue, jobs, null, CLOCK, QUIET));
        assertThrows(NullPointerException.class, () -> new JobRunner(queue, jobs, trainer, null, QUIET));
        assertThrows(NullPointerException.class, () -> new JobRunner(queue, jobs, trainer, CLOCK, null));
    }
}
