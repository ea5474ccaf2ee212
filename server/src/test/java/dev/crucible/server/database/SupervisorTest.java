package dev.crucible.server.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.testsupport.concurrent.Await;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SupervisorTest {

    /** A process that dies when told to, and whose restarts fail {@code failures} times first. */
    private static final class Flaky implements Supervisor.Supervised {
        final AtomicBoolean alive = new AtomicBoolean(true);
        final AtomicInteger attempts = new AtomicInteger();
        final AtomicInteger failures;

        Flaky(int failures) {
            this.failures = new AtomicInteger(failures);
        }

        @Override
        public boolean alive() {
            return alive.get();
        }

        @Override
        public void restart() throws IOException {
            attempts.incrementAndGet();
            if (failures.getAndDecrement() > 0) {
                throw new IOException("shared memory still in use");
            }
            alive.set(true);
        }
    }

    @Test
    void restartsAProcessThatDiedAndCountsIt() {
        Flaky process = new Flaky(0);
        try (Supervisor supervisor = new Supervisor("test", process, Duration.ofMillis(10), Duration.ofMillis(50)).start()) {
            assertEquals(0, supervisor.restarts());
            process.alive.set(false);
            Await.until(supervisor::restarts, n -> n == 1, Duration.ofSeconds(10));
            assertTrue(process.alive.get());
            process.alive.set(false);
            Await.until(supervisor::restarts, n -> n == 2, Duration.ofSeconds(10));
        }
    }

    @Test
    void retriesAFailedRestartUntilItWorks() {
        Flaky process = new Flaky(3);
        try (Supervisor supervisor = new Supervisor("test", process, Duration.ofMillis(10), Duration.ofMillis(40)).start()) {
            process.alive.set(false);
            Await.until(supervisor::restarts, n -> n == 1, Duration.ofSeconds(10));
            assertEquals(4, process.attempts.get(), "three failed attempts, then one that worked");
        }
    }

    @Test
    void leavesALiveProcessAloneAndStopsWhenClosed() throws InterruptedException {
        Flaky process = new Flaky(0);
        Supervisor supervisor = new Supervisor("test", process, Duration.ofMillis(10), Duration.ofMillis(50)).start();
        Thread.sleep(100);
        supervisor.close();
        process.alive.set(false);
        Thread.sleep(100);
        assertEquals(0, process.attempts.get());
        assertEquals(0, supervisor.restarts());
    }
}
