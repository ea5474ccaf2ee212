package dev.crucible.application.process;

import dev.crucible.application.fakes.FakeLoraAdapter;
import dev.crucible.application.inference.serving.AdapterCache;
import dev.crucible.application.inference.serving.AdapterSource;
import dev.crucible.application.inference.serving.ServedAdapterEviction;
import dev.crucible.domain.model.ModelId;
import dev.crucible.testsupport.concurrent.Await;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Following the catalog: every change once and in order, from the start point; removals drop loaded adapters. */
class CatalogFollowerTest {

    /** The change log in memory; {@link #await} returns at once when something was appended since the last wait. */
    private static final class Log implements CatalogChanges {
        private final List<CatalogChange> rows = new ArrayList<>();
        private boolean woken;
        private boolean closed;

        synchronized CatalogChange append(ModelId model, OptionalInt step, CatalogChange.Kind kind) {
            CatalogChange change = new CatalogChange(rows.size() + 1, model, step, kind);
            rows.add(change);
            woken = true;
            notifyAll();
            return change;
        }

        @Override
        public synchronized long latest() {
            return rows.size();
        }

        @Override
        public synchronized List<CatalogChange> after(long seq, int limit) {
            return rows.stream().filter(c -> c.seq() > seq).limit(limit).toList();
        }

        @Override
        public synchronized boolean await(Duration limit) throws InterruptedException {
            if (!woken) {
                wait(limit.toMillis());
            }
            boolean was = woken;
            woken = false;
            return was;
        }

        @Override
        public int prune(Instant before) {
            return 0;
        }

        @Override
        public synchronized void close() {
            closed = true;
        }
    }

    private final Log log = new Log();
    private final List<CatalogChange> seen = new CopyOnWriteArrayList<>();

    @Test
    void handsOnEveryChangeAfterItsStartOnceAndInOrder() {
        ModelId model = ModelId.random();
        log.append(model, OptionalInt.of(1), CatalogChange.Kind.CHECKPOINT_ADDED);
        try (CatalogFollower follower = new CatalogFollower(log, seen::add, Duration.ofHours(1), Clock.systemUTC())) {
            follower.start();
            CatalogChange added = log.append(model, OptionalInt.of(2), CatalogChange.Kind.CHECKPOINT_ADDED);
            CatalogChange removed = log.append(model, OptionalInt.empty(), CatalogChange.Kind.MODEL_REMOVED);

            assertTrue(Await.until(() -> seen.size() == 2), "woken by the appends, not by the hour-long poll");
            assertEquals(List.of(added, removed), seen);
            assertEquals(removed.seq(), follower.cursor());
        }
        assertTrue(log.closed);
    }

    @Test
    void aFailingListenerSkipsItsChangeAndTheOthersStillArrive() {
        ModelId model = ModelId.random();
        try (CatalogFollower follower = new CatalogFollower(log, change -> {
            if (change.seq() == 1) {
                throw new IllegalStateException("boom");
            }
            seen.add(change);
        }, Duration.ofMillis(20), Clock.systemUTC())) {
            follower.start();
            log.append(model, OptionalInt.of(1), CatalogChange.Kind.CHECKPOINT_REMOVED);
            log.append(model, OptionalInt.of(2), CatalogChange.Kind.CHECKPOINT_REMOVED);
            assertTrue(Await.until(() -> follower.cursor() == 2));
            assertEquals(1, seen.size());
        }
    }

    @Test
    void aRemovedCheckpointOrModelDropsItsLoadedAdaptersAndNoOthers() {
        ModelId model = ModelId.random();
        ModelId other = ModelId.random();
        AdapterCache cache = new AdapterCache(8);
        // one content-named folder for all four, as the blob store's cache keeps equal adapters
        Path folder = Path.of("/data/cache/5d41402abc4b2a76b9719d911017c592");
        for (ModelId m : List.of(model, other)) {
            for (int step = 1; step <= 2; step++) {
                cache.acquire("base", new AdapterSource(m, step, folder), f -> new FakeLoraAdapter()).close();
            }
        }
        ServedAdapterEviction eviction = new ServedAdapterEviction(cache);

        eviction.accept(new CatalogChange(1, model, OptionalInt.of(1), CatalogChange.Kind.CHECKPOINT_ADDED));
        assertEquals(4, cache.size(), "an added checkpoint drops nothing");
        eviction.accept(new CatalogChange(2, model, OptionalInt.of(1), CatalogChange.Kind.CHECKPOINT_REMOVED));
        assertEquals(3, cache.size());
        eviction.accept(new CatalogChange(3, model, OptionalInt.empty(), CatalogChange.Kind.MODEL_REMOVED));
        assertEquals(2, cache.size(), "the other model's adapters stay");
    }

    @Test
    void aModelRemovalNamesNoStepAndACheckpointChangeNamesOne() {
        ModelId model = ModelId.random();
        assertThrows(IllegalArgumentException.class,
                () -> new CatalogChange(1, model, OptionalInt.of(1), CatalogChange.Kind.MODEL_REMOVED));
        assertThrows(IllegalArgumentException.class,
                () -> new CatalogChange(1, model, OptionalInt.empty(), CatalogChange.Kind.CHECKPOINT_ADDED));
    }
}
