package dev.crucible.application.job;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Runs a {@link JobRunner} on its own thread until stopped, sleeping when the queue is empty. */
public final class JobRunnerLoop implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(JobRunnerLoop.class.getName());

    private final JobRunner runner;
    private final Duration pollInterval;
    private final Thread thread;
    private volatile boolean stopping;
    private final CountDownLatch wake = new CountDownLatch(1);

    public JobRunnerLoop(JobRunner runner, Duration pollInterval) {
        this.runner = Objects.requireNonNull(runner, "runner");
        this.pollInterval = Objects.requireNonNull(pollInterval, "pollInterval");
        this.thread = new Thread(this::loop, "job-runner-" + runner.runnerId());
        this.thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    /** Whether the loop thread is alive (the system check reports it). */
    public boolean alive() {
        return thread.isAlive() && !stopping;
    }

    private void loop() {
        while (!stopping) {
            try {
                if (!runner.runOnce()) {
                    wake.await(pollInterval.toNanos(), TimeUnit.NANOSECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                if (stopping) {
                    return;
                }
                // The database may be briefly unreachable; keep the runner alive and try again.
                LOG.log(Level.WARNING, "job runner round failed; retrying", e);
                sleepQuietly();
            }
        }
    }

    private void sleepQuietly() {
        try {
            wake.await(pollInterval.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The server is shutting down: claims no further job, asks the running job's trainer to stop and waits up to
     * {@code limit} for it (the job then goes back to the queue, with its {@code training_requeued} event); a job still
     * running after that is handed back without waiting for its trainer. The thread is not interrupted,
     * so a trainer is never cut off in the middle of writing a file.
     *
     * @return true when the loop ended within {@code limit}
     */
    public boolean stop(Duration limit) throws InterruptedException {
        stopping = true;
        runner.stop();
        wake.countDown();
        if (thread.isAlive()) {
            thread.join(limit);
        }
        if (thread.isAlive()) {
            LOG.warning("the running training job did not stop within " + limit + "; handing it back to the queue");
            runner.requeueInterrupted();
            return false;
        }
        return true;
    }

    @Override
    public void close() {
        stopping = true;
        runner.stop();
        wake.countDown();
        thread.interrupt();
    }
}
