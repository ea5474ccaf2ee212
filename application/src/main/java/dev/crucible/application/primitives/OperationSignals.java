package dev.crucible.application.primitives;

import java.time.Duration;

/**
 * Wakes the requests that wait for futures when an operation of this process finishes. A waiter reads the log again
 * after each wake, so a missed or spurious wake costs at most one poll interval, never a wrong answer. Thread-safe.
 */
public final class OperationSignals {

    private long finished;

    /** Says that some operation finished. */
    public synchronized void finished() {
        finished++;
        notifyAll();
    }

    /** The count of finished operations so far, to pass to {@link #awaitAfter}. */
    public synchronized long mark() {
        return finished;
    }

    /** Waits until an operation finishes after {@code mark} was read, or {@code timeout} passes. */
    public synchronized void awaitAfter(long mark, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (finished == mark) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return;
            }
            wait(Math.max(1, left / 1_000_000));
        }
    }
}
