package dev.crucible.testsupport.concurrent;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/** Polls a condition for tests that involve a background thread (a generator's scheduler, a job runner). */
public final class Await {

    private static final Duration LIMIT = Duration.ofSeconds(10);
    private static final Duration PROBE_INTERVAL = Duration.ofMillis(50);

    private Await() {
    }

    /** Waits until {@code condition} holds, checking every millisecond, ten seconds at most; says whether it did. */
    public static boolean until(BooleanSupplier condition) {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /**
     * Probes every 50 ms until {@code done} accepts the probe's value, and returns that value; fails the test with the
     * last value when {@code timeout} passes first (probes that call a server over HTTP, such as a job's status).
     */
    public static <T> T until(Supplier<T> probe, Predicate<T> done, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        T last = probe.get();
        while (!done.test(last)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within " + timeout + "; last value: " + last);
            }
            try {
                Thread.sleep(PROBE_INTERVAL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
            last = probe.get();
        }
        return last;
    }
}
