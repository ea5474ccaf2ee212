package dev.crucible.engine.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.config.RopeScaling;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class RunnerKvCacheTest {

    /** A model whose caches hold at most 32 tokens. */
    private static final ModelConfig CONFIG = new ModelConfig(Architecture.LLAMA, 8, 16, 1, 2, 1, 4, 10, 1e-6, 1e4,
            new RopeScaling.Unscaled(), 32, false, false, OptionalInt.empty(), List.of(), Optional.empty());

    private static final class Cache extends RunnerKvCache {

        Cache(int capacity) {
            this(new RunnerResources(new Object()), capacity);
        }

        Cache(RunnerResources owner, int capacity) {
            super(owner, capacity);
        }

        @Override
        protected void free() {
        }
    }

    @Test
    void aNewCacheIsEmptyAndAdvancesByWhatEachForwardCommitted() {
        Cache cache = new Cache(32);
        assertEquals(32, cache.capacity());
        assertEquals(0, cache.length());
        cache.advance(5);
        cache.advance(2);
        assertEquals(7, cache.length());
        assertEquals(25, cache.remaining());
    }

    @Test
    void acceptsCapacitiesFromOneToTheModelsLength() {
        RunnerKvCache.checkCapacity(1, CONFIG);
        RunnerKvCache.checkCapacity(32, CONFIG);
    }

    @Test
    void refusesACapacityOutsideOneToTheModelsLength() {
        for (int capacity : new int[] {0, 33}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> RunnerKvCache.checkCapacity(capacity, CONFIG));
            assertEquals("capacityTokens must be in [1, 32] (max_position_embeddings), got " + capacity, e.getMessage());
        }
    }

    @Test
    void addCacheRefusesABadCapacityOrAClosedRunnerBeforeMakingTheCache() {
        RunnerResources resources = new RunnerResources(new Object());
        Supplier<Cache> never = () -> {
            throw new AssertionError("the cache was made");
        };
        assertThrows(IllegalArgumentException.class, () -> resources.addCache(33, CONFIG, never));
        Cache made = resources.addCache(32, CONFIG, () -> new Cache(resources, 32));
        assertEquals(32, made.capacity());
        resources.close();
        assertTrue(made.isClosed(), "registered, so closing the runner frees it");
        assertThrows(IllegalStateException.class, () -> resources.addCache(1, CONFIG, never));
    }
}
