package dev.crucible.kernel.lifecycle;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class ThreadStopTest {

    private static final Duration PATIENCE = Duration.ofMinutes(1);

    @Test
    void aThreadWaitingForeverIsInterruptedAndWaitedFor() throws InterruptedException {
        CountDownLatch never = new CountDownLatch(1);
        Thread sleeper = Thread.ofPlatform().daemon().start(() -> {
            try {
                never.await();
            } catch (InterruptedException e) {
                // the stop this test asks for
            }
        });

        assertTrue(ThreadStop.interruptAndJoin(sleeper, PATIENCE));
        assertFalse(sleeper.isAlive());
        assertFalse(Thread.currentThread().isInterrupted());
    }

    @Test
    void aThreadThatIgnoresTheInterruptIsLeftRunningAfterThePatience() {
        CountDownLatch release = new CountDownLatch(1);
        Thread stubborn = Thread.ofPlatform().daemon().start(() -> {
            while (release.getCount() > 0) {
                Thread.onSpinWait();
            }
        });
        try {
            assertFalse(ThreadStop.interruptAndJoin(stubborn, Duration.ofMillis(20)));
            assertTrue(stubborn.isAlive());
        } finally {
            release.countDown();
        }
    }

    @Test
    void anInterruptedCallerStopsWaitingAndKeepsItsInterruptStatus() {
        CountDownLatch release = new CountDownLatch(1);
        Thread stubborn = Thread.ofPlatform().daemon().start(() -> {
            while (release.getCount() > 0) {
                Thread.onSpinWait();
            }
        });
        try {
            Thread.currentThread().interrupt();
            assertFalse(ThreadStop.interruptAndJoin(stubborn, PATIENCE));
            assertTrue(Thread.interrupted(), "the caller's interrupt status is kept (and cleared here)");
        } finally {
            release.countDown();
        }
    }
}
