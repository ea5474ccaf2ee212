package dev.crucible.testsupport.concurrent;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Polls a condition for tests that involve a background thread. */
public final class Await {

    private static final Duration LIMIT = Duration.ofSeconds(10);

    private Await() {
    }

    /** Waits until {@code condition} holds, at most ten seconds; returns whether it held. */
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
}
