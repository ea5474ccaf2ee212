package dev.crucible.kernel.lifecycle;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ThreadStopTest {

    private static final Duration PATIENCE = Duration.ofMinutes(1);

    /** Lets the test's stubborn thread end. */
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void releaseTheStubbornThread() {
        release.countDown();
    }

    @Test
    void aThreadWaitingForeverIsInterruptedAndWaitedFor() {
        Thread sleeper = Thread.ofPlatform().daemon().start(() -> {
            try {
                release.await();
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
        Thread stubborn = stubborn();

        assertFalse(ThreadStop.interruptAndJoin(stubborn, Duration.ofMillis(20)));
        assertTrue(stubborn.isAlive());
    }

    @Test
    void anInterruptedCallerStopsWaitingAndKeepsItsInterruptStatus() {
        Thread stubborn = stubborn();

        Thread.currentThread().interrupt();
        assertFalse(ThreadStop.interruptAndJoin(stubborn, PATIENCE));
        assertTrue(Thread.interrupted(), "the caller's interrupt status is kept (and cleared here)");
    }

    /** A thread that runs on through interrupts until {@link #release} opens. */
    private Thread stubborn() {
        return Thread.ofPlatform().daemon().start(() -> {
            while (release.getCount() > 0) {
                Thread.onSpinWait();
            }
        });
    }
}
