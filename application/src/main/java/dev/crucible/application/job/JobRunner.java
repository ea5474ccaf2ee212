package dev.crucible.application.job;

import dev.crucible.domain.job.JobEvent;
import dev.crucible.domain.job.JobSpec;
import dev.crucible.domain.job.TrainingJob;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Claims queued jobs and runs them through the {@link JobTrainer}, writing events as they happen and ending
 * every job with {@code training_ended} or {@code training_failed}. Jobs orphaned by a runner that died (their
 * heartbeat went stale) are failed with an event instead of being retried: a half-run job may have written
 * progress, and a silent rerun would repeat it.
 *
 * <p>When the server stops (SIGTERM), {@link #stop()} makes the running job's trainer see
 * {@link TrainingProgress#cancelled()} and hands the job back to the queue, {@code QUEUED} again at its old place, with
 * a {@code training_requeued} event ({@link #REQUEUED}); the next runner to claim it, in this process after a restart
 * or in another worker, trains it again from the model's latest checkpoint (a job writes its checkpoint only when it
 * ends, so nothing of the interrupted attempt is kept but its events). A trainer that does not stop in time is
 * overtaken by {@link #requeueInterrupted()}. A job whose runner died without stopping (kill -9, a lost machine) is
 * failed as orphaned once its heartbeat is stale, never re-queued: the job itself may be what killed the process
 * (memory), and re-queuing it would kill every worker in turn.
 *
 * <p>One runner works on one job at a time; several runners (threads or processes) may share one queue.
 */
public final class JobRunner {

    static final String ORPHANED = "training was interrupted: the server running this job stopped before it "
            + "finished; submit the job again";
    static final String CRASHED = "training failed because of an internal error";
    /** Why a job goes back to the queue when its server shuts down while training it. */
    public static final String REQUEUED = "the server training this job stopped before it finished; the job was put "
            + "back in the queue and trains again, from the model's latest checkpoint, on the next runner to claim it";
    /** Why a job ends when the checkpoint step it trained was written by someone else meanwhile. */
    static String stepTaken(int step) {
        return "training finished, but checkpoint step " + step + " of the model was written by someone else while "
                + "the job trained, so its adapter was not recorded; submit the job again";
    }

    private static final Logger LOG = Logger.getLogger(JobRunner.class.getName());

    private final JobQueue queue;
    private final JobStore jobs;
    private final JobTrainer trainer;
    private final Clock clock;
    private final RunnerSettings settings;
    private final UUID runnerId = UUID.randomUUID();
    private volatile Instant lastRound;
    private final AtomicBoolean stopping = new AtomicBoolean(false);
    private volatile TrainingJob current;
    private final TrainingObserver observer;

    public JobRunner(JobQueue queue, JobStore jobs, JobTrainer trainer, Clock clock, RunnerSettings settings) {
        this(queue, jobs, trainer, clock, settings, TrainingObserver.NONE);
    }

    /** A runner that reports steps and job ends to {@code observer}. */
    public JobRunner(JobQueue queue, JobStore jobs, JobTrainer trainer, Clock clock, RunnerSettings settings,
            TrainingObserver observer) {
        this.queue = Objects.requireNonNull(queue, "queue");
        this.jobs = Objects.requireNonNull(jobs, "jobs");
        this.trainer = Objects.requireNonNull(trainer, "trainer");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.observer = Objects.requireNonNull(observer, "observer");
        this.lastRound = clock.instant();
    }

    public UUID runnerId() {
        return runnerId;
    }

    /** When this runner last finished a round; a stuck runner shows an old value. */
    public Instant lastRound() {
        return lastRound;
    }

    /** Fails jobs whose runner stopped sending heartbeats. */
    public int failStaleJobs() {
        Instant now = clock.instant();
        int failed = 0;
        for (TrainingJob job : queue.stale(now.minus(settings.staleAfter()))) {
            if (job.status() instanceof dev.crucible.domain.job.JobStatus.Running running
                    && queue.fail(job.fail(now, ORPHANED), running.runnerId(), JobEvent.failed(job.id(), ORPHANED, now))) {
                failed++;
            }
        }
        return failed;
    }

    /**
     * Stops for good: no further job is claimed, and the running job's trainer is asked to stop (its job then goes
     * back to the queue). Returns at once; thread-safe.
     */
    public void stop() {
        stopping.set(true);
    }

    /**
     * Hands the job this runner is training, if any, back to the queue without waiting for its trainer: for a
     * trainer that did not stop in time. Its later result is then ignored (the job is no longer running under this
     * runner). True when a job was handed back.
     */
    public boolean requeueInterrupted() {
        TrainingJob job = current;
        return job != null && requeue(job);
    }

    private boolean requeue(TrainingJob job) {
        return queue.requeue(job.requeue(), runnerId, JobEvent.requeued(job.id(), REQUEUED, clock.instant()));
    }

    /** One round: fail orphaned jobs, then claim and run at most one job. True when a job ran. */
    public boolean runOnce() {
        if (stopping.get()) {
            return false;
        }
        failStaleJobs();
        Optional<TrainingJob> claimed = queue.claimNext(runnerId, clock.instant());
        claimed.ifPresent(this::run);
        lastRound = clock.instant();
        return claimed.isPresent();
    }

    private void run(TrainingJob job) {
        AtomicBoolean lost = new AtomicBoolean(false);
        ScheduledExecutorService beat = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "job-heartbeat-" + job.id());
            t.setDaemon(true);
            return t;
        });
        long period = Math.max(1, settings.heartbeatInterval().toMillis());
        beat.scheduleAtFixedRate(() -> heartbeat(job, lost), period, period, TimeUnit.MILLISECONDS);
        current = job;
        Instant claimed = clock.instant();
        try {
            TrainingResult result = train(job, new EventProgress(queue, job, runnerId, clock, lost, stopping,
                    observer));
            String outcome = finish(job, result, lost.get());
            observer.jobEnded(job.type(), outcome, Duration.between(claimed, clock.instant()));
        } finally {
            current = null;
            beat.shutdownNow();
        }
    }

    private void heartbeat(TrainingJob job, AtomicBoolean lost) {
        try {
            if (!queue.heartbeat(job, runnerId, clock.instant())) {
                lost.set(true);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "heartbeat of job " + job.id() + " failed; will retry", e);
        }
    }

    private TrainingResult train(TrainingJob job, TrainingProgress progress) {
        try {
            Optional<JobSpec> spec = jobs.spec(job.id());
            if (spec.isEmpty()) {
                return new TrainingResult.Failed("the job's input is missing");
            }
            return trainer.train(job, spec.get(), progress);
        } catch (RuntimeException e) {
            LOG.log(Level.SEVERE, "job " + job.id() + " crashed in the trainer", e);
            return new TrainingResult.Failed(CRASHED);
        }
    }

    /**
     * Writes the job's end: {@code completed} (with its checkpoint), {@code failed}, {@code requeued} (stopped by the
     * shutdown), or {@code lost} when the job was no longer this runner's to end (cancelled by a model deletion,
     * failed as orphaned, or already handed back).
     */
    private String finish(TrainingJob job, TrainingResult result, boolean lost) {
        Instant now = clock.instant();
        switch (result) {
            case TrainingResult.Trained trained -> {
                return switch (queue.complete(job, runnerId, trained.step(), trained.metrics(), now)) {
                    case JobCompletion.Completed done -> "completed";
                    case JobCompletion.StepTaken taken -> {
                        String message = stepTaken(taken.step());
                        queue.fail(job.fail(now, message), runnerId, JobEvent.failed(job.id(), message, now));
                        yield "failed";
                    }
                    case JobCompletion.NotHeld notHeld -> "lost";
                };
            }
            case TrainingResult.Failed failed -> {
                // A trainer stopped by the shutdown says only that it was cancelled: the job is not at fault.
                if (stopping.get() && !lost) {
                    return requeue(job) ? "requeued" : "lost";
                }
                return queue.fail(job.fail(now, failed.message()), runnerId,
                        JobEvent.failed(job.id(), failed.message(), now)) ? "failed" : "lost";
            }
        }
    }
}
