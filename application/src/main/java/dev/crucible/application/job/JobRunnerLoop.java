package dev.crucible.application.job;

import java.time.Duration;
import java.util.Objects;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Runs a {@link JobRunner} on its own thread until stopped, sleeping when the queue is empty. */
public final class JobRunnerLoop implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(JobRunnerLoop.class.getName());

    private final JobRunner runner;
    private final Duration pollInterval;
    private final Thread thread;
    private volatile boolean stopping;

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
                    Thread.sleep(pollInterval);
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
            Thread.sleep(pollInterval);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        stopping = true;
        thread.interrupt();
    }
}
