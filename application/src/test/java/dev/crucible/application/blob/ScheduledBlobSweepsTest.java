package dev.crucible.application.blob;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.testsupport.concurrent.Await;
import java.io.ByteArrayInputStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ScheduledBlobSweepsTest {

    private final MemoryBlobStore store = new MemoryBlobStore();

    /** A second from now (so every object is past a zero grace), noting which threads asked; the first {@code fails} ask throw. */
    private static final class WatchedClock extends Clock {
        final List<String> threads = new CopyOnWriteArrayList<>();
        final AtomicInteger fails;

        WatchedClock(int fails) {
            this.fails = new AtomicInteger(fails);
        }

        @Override
        public Instant instant() {
            threads.add(Thread.currentThread().getName());
            if (fails.getAndDecrement() > 0) {
                throw new IllegalStateException("the store is briefly away");
            }
            return Instant.now().plusSeconds(1);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }

    private void orphan(String text) {
        store.put(new ByteArrayInputStream(text.getBytes()), Long.MAX_VALUE).orElseThrow();
    }

    /** Sweeps with no grace, ticking only hourly, so that what collects in a test is its requests. */
    private ScheduledBlobSweeps sweepsOnRequest(WatchedClock clock) {
        return new ScheduledBlobSweeps(new BlobCollector(store, Duration.ZERO, clock), Duration.ofHours(1));
    }

    @Test
    void aRequestCollectsOnTheSweepThreadNotTheCallers() {
        orphan("nothing names me");
        WatchedClock clock = new WatchedClock(0);
        try (ScheduledBlobSweeps sweeps = sweepsOnRequest(clock)) {
            sweeps.request();
            assertTrue(Await.until(() -> BlobStoreContract.blobs(store).isEmpty()), "the orphan is collected");
            assertEquals(List.of("blob-sweeps"), clock.threads.stream().distinct().toList());
            assertNotEquals("blob-sweeps", Thread.currentThread().getName());
        }
    }

    @Test
    void aFailedSweepLeavesTheThreadToCollectAtTheNextRequest() {
        orphan("still here after a failed sweep");
        WatchedClock clock = new WatchedClock(1);
        try (ScheduledBlobSweeps sweeps = sweepsOnRequest(clock)) {
            sweeps.request();
            assertTrue(Await.until(() -> clock.threads.size() == 1), "the first sweep ran");
            assertEquals(1, BlobStoreContract.blobs(store).size(), "and failed, deleting nothing");
            sweeps.request();
            assertTrue(Await.until(() -> BlobStoreContract.blobs(store).isEmpty()), "the next sweep collects");
        }
    }

    @Test
    void theTicksCollectWithoutARequest() {
        orphan("collected by a tick");
        try (ScheduledBlobSweeps ignored = new ScheduledBlobSweeps(
                new BlobCollector(store, Duration.ZERO, new WatchedClock(0)), Duration.ofMillis(20))) {
            assertTrue(Await.until(() -> BlobStoreContract.blobs(store).isEmpty()), "a tick collects the orphan");
        }
    }

    @Test
    void aRequestAfterCloseIsIgnored() {
        orphan("left for the next start");
        WatchedClock clock = new WatchedClock(0);
        ScheduledBlobSweeps sweeps = sweepsOnRequest(clock);
        sweeps.close();
        sweeps.request();
        assertEquals(List.of(), clock.threads);
        assertEquals(1, BlobStoreContract.blobs(store).size());
    }
}
