package dev.crucible.server.support;

import java.time.Duration;
import java.util.function.Supplier;

/** Polls a condition until it holds or a deadline passes (jobs run on the runner's thread). */
public final class Await {

    private Await() {
    }

    public static <T> T until(Supplier<T> probe, java.util.function.Predicate<T> done, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        T last = probe.get();
        while (!done.test(last)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within " + timeout + "; last value: " + last);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
            last = probe.get();
        }
        return last;
    }
}
