package dev.crucible.application.blob;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Collections on one thread of their own: every {@code interval} (so that objects still inside the grace when a
 * delete asked are collected once it has passed), and soon after each {@link #request()}; requests made while one is
 * waiting to run are that one. A failed collection (the store briefly away) is logged and tried again at the next
 * tick. Collections may run in several processes at once (the rule in {@link BlobCollector}).
 */
public final class ScheduledBlobSweeps implements BlobSweeps, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ScheduledBlobSweeps.class.getName());

    private final BlobCollector collector;
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("blob-sweeps").daemon().factory());
    private final AtomicBoolean waiting = new AtomicBoolean();

    /** Starts ticking: the first tick one {@code interval} from now. */
    public ScheduledBlobSweeps(BlobCollector collector, Duration interval) {
        this.collector = Objects.requireNonNull(collector, "collector");
        if (interval == null || interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("interval must be positive, got " + interval);
        }
        long period = interval.toMillis();
        thread.scheduleWithFixedDelay(this::sweep, period, period, TimeUnit.MILLISECONDS);
    }

    @Override
    public void request() {
        if (waiting.compareAndSet(false, true)) {
            try {
                thread.execute(this::sweep);
            } catch (RejectedExecutionException closed) {
                waiting.set(false); // closing: the next start's ticks collect what this delete left
            }
        }
    }

    private void sweep() {
        waiting.set(false);
        try {
            int deleted = collector.collect();
            if (deleted > 0) {
                LOG.fine(() -> "blob sweep deleted " + deleted + " objects nothing names");
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "blob sweep failed; trying again at the next tick", e);
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
