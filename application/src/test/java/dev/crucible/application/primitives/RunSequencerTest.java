package dev.crucible.application.primitives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A run's operations run one at a time, lowest seq_id first among those waiting. */
class RunSequencerTest {

    @Test
    void queuedOperationsRunInSeqIdOrderOneAtATime() throws InterruptedException {
        List<Long> ran = new CopyOnWriteArrayList<>();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(5);
        try (RunSequencer sequencer = new RunSequencer("test-run")) {
            sequencer.submit(1, () -> {
                started.countDown();
                await(release);
                ran.add(1L);
                done.countDown();
            });
            assertTrue(started.await(60, TimeUnit.SECONDS), "the first operation starts");
            for (long seq : new long[] {5, 3, 2, 4}) {
                sequencer.submit(seq, () -> {
                    ran.add(seq);
                    done.countDown();
                });
            }
            release.countDown();
            assertTrue(done.await(60, TimeUnit.SECONDS), "every operation runs");
        }
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), ran);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
