package dev.crucible.application.process;

import dev.crucible.kernel.lifecycle.ThreadStop;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Follows the {@link CatalogChanges} on its own thread from the moment it starts, handing every change, in order and
 * once, to {@code listener} (which drops what this process holds for a removed checkpoint). It wakes on every
 * notification and at least every {@code pollInterval}, so a change reaches it within that interval even when
 * notifications are lost. Changes older than {@code keep} are pruned now and then. A failed round (the database
 * briefly away) is logged and retried; the loop never dies silently.
 */
public final class CatalogFollower implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(CatalogFollower.class.getName());
    private static final int BATCH = 500;
    private static final Duration KEEP = Duration.ofHours(1);

    private final CatalogChanges changes;
    private final Consumer<CatalogChange> listener;
    private final Duration pollInterval;
    private final Clock clock;
    private final Thread thread;
    private volatile boolean stopping;
    private volatile long cursor = -1;
    private Instant lastPrune = Instant.MIN;

    public CatalogFollower(CatalogChanges changes, Consumer<CatalogChange> listener, Duration pollInterval,
            Clock clock) {
        this.changes = Objects.requireNonNull(changes, "changes");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.pollInterval = Objects.requireNonNull(pollInterval, "pollInterval");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.thread = Thread.ofPlatform().name("catalog-follower").daemon().unstarted(this::loop);
    }

    /** Starts following from the newest change now (what came before is already in the database this reads). */
    public synchronized void start() {
        if (cursor < 0) {
            cursor = changes.latest();
            thread.start();
        }
    }

    /** The place of the last change handed on; -1 before {@link #start()}. */
    public long cursor() {
        return cursor;
    }

    /** Reads and hands on every change after the cursor; one round of the loop. Returns how many. */
    int catchUp() {
        int handed = 0;
        while (true) {
            List<CatalogChange> batch = changes.after(cursor, BATCH);
            for (CatalogChange change : batch) {
                try {
                    listener.accept(change);
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "catalog change " + change + " could not be applied; skipped", e);
                }
                cursor = change.seq();
                handed++;
            }
            if (batch.size() < BATCH) {
                return handed;
            }
        }
    }

    private void loop() {
        try {
            while (!stopping) {
                // Woken by a notification, or not: the wait is also the pause before retrying a failed round.
                changes.await(pollInterval);
                round();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void round() {
        try {
            catchUp();
            pruneNowAndThen();
        } catch (RuntimeException e) {
            if (!stopping) {
                LOG.log(Level.WARNING, "following catalog changes failed; retrying after the next wait", e);
            }
        }
    }

    private void pruneNowAndThen() {
        Instant now = clock.instant();
        if (lastPrune.isBefore(now.minus(Duration.ofMinutes(10)))) {
            lastPrune = now;
            changes.prune(now.minus(KEEP));
        }
    }

    /**
     * Stops the loop: closing the changes first ends a wait for a notification at once (a blocked socket read does
     * not answer an interrupt), so a stop does not sit out the rest of {@code pollInterval}.
     */
    @Override
    public void close() {
        stopping = true;
        changes.close();
        ThreadStop.interruptAndJoin(thread, Duration.ofSeconds(5));
    }
}
