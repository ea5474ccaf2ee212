package dev.crucible.application.process;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The log of catalog changes every process follows, so that a checkpoint made or deleted by one process is seen by
 * all within a bounded time: the database writes a change for every checkpoint added or removed and every model
 * removed, in the same transaction, and wakes the followers (PostgreSQL {@code LISTEN/NOTIFY}); a follower that
 * misses a wake-up still reads every change by its place in the log ({@link #after}), at the latest at its next poll.
 *
 * <p>{@link #latest}, {@link #after} and {@link #prune} are thread-safe, one transaction each; {@link #await} is called
 * from one follower thread only. Infrastructure failures are unchecked exceptions, except in {@link #await}.
 */
public interface CatalogChanges extends AutoCloseable {

    /** The place of the newest change, 0 when there is none: where a follower starting now begins. */
    long latest();

    /** Up to {@code limit} changes after place {@code seq}, oldest first. */
    List<CatalogChange> after(long seq, int limit);

    /**
     * Waits up to {@code limit} for a wake-up. True when one came (something may have changed); false on timeout, and
     * also when the notification channel is down (it reconnects on a later call): the caller reads {@link #after}
     * either way, so a lost channel only turns wake-ups into polling.
     */
    boolean await(Duration limit) throws InterruptedException;

    /** Removes changes written before {@code before}: no follower is that far behind. Returns how many. */
    int prune(Instant before);

    /** Closes the notification channel; a wait in progress on another thread ends at once, with false. */
    @Override
    void close();
}
