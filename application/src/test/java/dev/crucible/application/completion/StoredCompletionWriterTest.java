package dev.crucible.application.completion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.domain.completion.CompletionMetadata;
import dev.crucible.domain.completion.CompletionTokens;
import dev.crucible.domain.completion.StoredCompletion;
import dev.crucible.domain.completion.StoredCompletionQuery;
import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.domain.usage.UsageProject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The writer keeps completions off the caller's thread: batches reach the store, the flush signal says when, a full
 * queue drops instead of blocking, a bad completion drops alone, and closing writes what is queued.
 */
class StoredCompletionWriterTest {

    /** A store that keeps batches in memory; a completion with id "bad" fails its transaction; may be held shut. */
    private static final class BatchStore implements StoredCompletionStore {
        final List<List<String>> batches = Collections.synchronizedList(new ArrayList<>());
        final CountDownLatch open = new CountDownLatch(1);
        final CountDownLatch entered = new CountDownLatch(1);

        @Override
        public int insertAll(List<StoredCompletion> completions) {
            entered.countDown();
            try {
                open.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            if (completions.stream().anyMatch(c -> c.id().equals("bad"))) {
                throw new IllegalStateException("rolled back");
            }
            batches.add(completions.stream().map(StoredCompletion::id).toList());
            return completions.size();
        }

        @Override
        public Optional<StoredCompletion> find(EntityName entity, String id) {
            return Optional.empty();
        }

        @Override
        public List<StoredCompletion> fetch(StoredCompletionQuery query) {
            return List.of();
        }

        @Override
        public Optional<StoredCompletion> replaceMetadata(EntityName entity, String id, CompletionMetadata metadata) {
            return Optional.empty();
        }

        @Override
        public boolean delete(EntityName entity, String id) {
            return false;
        }

        List<String> written() {
            return batches.stream().flatMap(List::stream).toList();
        }
    }

    private final BatchStore store = new BatchStore();
    /** How many completions the writer said it dropped. */
    private final AtomicInteger dropped = new AtomicInteger();

    /** A writer into {@link #store} on a platform thread, counting its drops in {@link #dropped}. */
    private StoredCompletionWriter writer(int capacity, int maxBatch) {
        return new StoredCompletionWriter(store, capacity, maxBatch, (n, why) -> dropped.addAndGet(n),
                Thread.ofPlatform().factory());
    }

    private static StoredCompletion completion(String id) {
        return new StoredCompletion(id, UsageProject.defaultOf(new EntityName("ada")), Instant.EPOCH, "m", List.of(),
                List.of(), new CompletionTokens(1, 1), CompletionMetadata.empty(), Map.of());
    }

    @Test
    void queuedCompletionsAreWrittenInBatchesAndTheFlushSignalSaysWhen() throws Exception {
        try (StoredCompletionWriter writer = writer(100, 3)) {
            assertTrue(writer.keep(completion("c0")));
            store.entered.await();
            for (int i = 1; i < 6; i++) {
                assertTrue(writer.keep(completion("c" + i)), "queued while the store is busy");
            }
            var flushed = writer.flushed();
            assertFalse(flushed.isDone());
            store.open.countDown();
            flushed.get();
            assertEquals(List.of("c0", "c1", "c2", "c3", "c4", "c5"), store.written());
            assertEquals(List.of(List.of("c0"), List.of("c1", "c2", "c3"), List.of("c4", "c5")), store.batches);
            assertEquals(6, writer.written());
            assertEquals(0, dropped.get());
            assertTrue(writer.flushed().isDone(), "nothing queued: already flushed");
        }
    }

    @Test
    void aFullQueueDropsAndCountsInsteadOfBlocking() throws Exception {
        try (StoredCompletionWriter writer = writer(2, 10)) {
            writer.keep(completion("c0"));
            store.entered.await();
            assertTrue(writer.keep(completion("c1")));
            assertTrue(writer.keep(completion("c2")));
            assertFalse(writer.keep(completion("c3")), "the queue holds two");
            assertEquals(1, writer.dropped());
            assertEquals(1, dropped.get());
            store.open.countDown();
            writer.flushed().get();
            assertEquals(List.of("c0", "c1", "c2"), store.written());
        }
    }

    @Test
    void aCompletionTheStoreRefusesIsDroppedAloneAndTheWriterGoesOn() throws Exception {
        try (StoredCompletionWriter writer = writer(10, 10)) {
            writer.keep(completion("c0"));
            store.entered.await();
            writer.keep(completion("c1"));
            writer.keep(completion("bad"));
            writer.keep(completion("c2"));
            store.open.countDown();
            writer.flushed().get();
            writer.keep(completion("c3"));
            writer.flushed().get();
            assertEquals(List.of("c0", "c1", "c2", "c3"), store.written());
            assertEquals(1, dropped.get());
        }
    }

    @Test
    void closingWritesWhatIsQueuedThenDrops() throws Exception {
        StoredCompletionWriter writer = writer(10, 10);
        writer.keep(completion("c0"));
        store.entered.await();
        writer.keep(completion("c1"));
        store.open.countDown();
        writer.close();
        assertEquals(List.of("c0", "c1"), store.written());
        assertFalse(writer.keep(completion("c2")), "a stopped writer takes nothing");
        assertEquals(1, dropped.get());
    }
}
