package dev.crucible.application.inference.serving;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.application.fakes.FakeLoraAdapter;
import dev.crucible.domain.model.ModelId;
import dev.crucible.engine.spi.LoraAdapter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class AdapterCacheTest {

    private final List<FakeLoraAdapter> loaded = new ArrayList<>();
    private static final ModelId CHECKPOINTS = ModelId.random();

    /** Checkpoint 1 of one model, its files in {@code folder}. */
    private static AdapterSource source(String folder) {
        return new AdapterSource(CHECKPOINTS, 1, Path.of(folder));
    }

    private final Function<Path, LoraAdapter> loader = folder -> {
        FakeLoraAdapter adapter = new FakeLoraAdapter();
        loaded.add(adapter);
        return adapter;
    };

    @Test
    void loadsOnceAndReusesWhileCached() {
        AdapterCache cache = new AdapterCache(2);
        try (AdapterCache.Lease a = cache.acquire("m", source("/a"), loader);
                AdapterCache.Lease again = cache.acquire("m", source("/a"), loader)) {
            assertSame(a.adapter(), again.adapter());
        }
        assertEquals(1, loaded.size());
    }

    @Test
    void evictsTheLeastRecentlyUsedUnusedAdapter() {
        AdapterCache cache = new AdapterCache(2);
        cache.acquire("m", source("/a"), loader).close();
        cache.acquire("m", source("/b"), loader).close();
        cache.acquire("m", source("/a"), loader).close();
        cache.acquire("m", source("/c"), loader).close();
        assertEquals(2, cache.size());
        assertTrue(loaded.get(1).closed(), "b was the least recently used");
        assertFalse(loaded.get(0).closed());
        assertFalse(loaded.get(2).closed());
    }

    @Test
    void neverClosesAnAdapterInUseAndEvictsItOnceReleased() {
        AdapterCache cache = new AdapterCache(1);
        AdapterCache.Lease held = cache.acquire("m", source("/a"), loader);
        cache.acquire("m", source("/b"), loader).close();
        assertFalse(loaded.get(0).closed(), "a is in use");
        assertEquals(1, cache.size(), "b, unused, went instead");
        held.close();
        held.close();
        assertEquals(1, cache.size());
        cache.close();
        assertTrue(loaded.stream().allMatch(FakeLoraAdapter::closed));
    }

    @Test
    void theSameFolderForAnotherModelIsAnotherAdapter() {
        AdapterCache cache = new AdapterCache(4);
        cache.acquire("m1", source("/a"), loader).close();
        cache.acquire("m2", source("/a"), loader).close();
        assertEquals(2, loaded.size());
    }

    @Test
    void forgettingAModelDropsItsAdaptersClosingALeasedOneWhenItsLeaseCloses() {
        AdapterCache cache = new AdapterCache(4);
        cache.acquire("m", source("/a"), loader).close();
        AdapterCache.Lease held = cache.acquire("m", source("/b"), loader);
        cache.acquire("other", source("/a"), loader).close();

        cache.forget("m");

        assertTrue(loaded.get(0).closed(), "an unused adapter of the model closes at once");
        assertFalse(loaded.get(1).closed(), "one in use stays open while it is used");
        assertFalse(loaded.get(2).closed(), "another model's adapter stays");
        assertEquals(1, cache.size());
        held.close();
        assertTrue(loaded.get(1).closed(), "closed with its last lease");
        try (AdapterCache.Lease again = cache.acquire("m", source("/a"), loader)) {
            assertSame(loaded.get(3), again.adapter(), "the next request loads it anew");
        }
    }
}
