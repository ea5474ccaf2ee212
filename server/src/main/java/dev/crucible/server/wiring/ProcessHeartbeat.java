package dev.crucible.server.wiring;

import dev.crucible.application.primitives.OperationRecovery;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Beats for this process ({@link OperationRecovery#beat()}: registers it as alive and fails the operations of dead
 * processes) once when started, then at a fixed interval on its own thread; on close, fails this process's own
 * pending operations and leaves the registry. A failed beat (the database briefly away) is logged and retried at the
 * next tick.
 */
final class ProcessHeartbeat implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ProcessHeartbeat.class);

    private final OperationRecovery recovery;
    private final Duration interval;
    private final ScheduledExecutorService ticks = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("process-heartbeat").daemon().factory());
    private boolean started;

    ProcessHeartbeat(OperationRecovery recovery, Duration interval) {
        this.recovery = recovery;
        this.interval = interval;
    }

    /** Beats once now, in the caller's thread (before requests are served), then every interval. */
    synchronized void start() {
        if (started) {
            return;
        }
        started = true;
        recovery.beat();
        long period = Math.max(1, interval.toMillis());
        ticks.scheduleWithFixedDelay(this::tick, period, period, TimeUnit.MILLISECONDS);
    }

    private void tick() {
        try {
            recovery.beat();
        } catch (RuntimeException e) {
            LOG.warn("process heartbeat failed; retrying at the next tick", e);
        }
    }

    @Override
    public synchronized void close() {
        ticks.shutdownNow();
        if (started) {
            try {
                recovery.leave();
            } catch (RuntimeException e) {
                LOG.warn("could not leave the process registry; the others will find this process stale", e);
            }
        }
    }
}
