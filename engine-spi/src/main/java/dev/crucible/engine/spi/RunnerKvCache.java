package dev.crucible.engine.spi;

import dev.crucible.hf.config.ModelConfig;

/**
 * Base of an engine's {@link KvCache}: the capacity fixed at creation and the length, which the runner advances only
 * once a whole forward has succeeded, so positions at or past {@link #length()} may hold garbage and a failed forward
 * leaves the cache unchanged. The engine subclass holds the keys and values; {@link RunnerResource} frees them.
 */
public abstract class RunnerKvCache extends RunnerResource implements KvCache {

    private final int capacity;
    private volatile int length;

    /** An empty cache for {@code capacity} tokens, which {@link #checkCapacity} has accepted. */
    protected RunnerKvCache(RunnerResources owner, int capacity) {
        super(owner);
        this.capacity = capacity;
    }

    /**
     * Refuses a capacity a {@link ModelRunner#newCache} of this model may not make.
     *
     * @throws IllegalArgumentException for a capacity outside {@code [1, max_position_embeddings]}
     */
    public static void checkCapacity(int capacityTokens, ModelConfig config) {
        if (capacityTokens < 1 || capacityTokens > config.maxPositionEmbeddings()) {
            throw new IllegalArgumentException("capacityTokens must be in [1, " + config.maxPositionEmbeddings()
                    + "] (max_position_embeddings), got " + capacityTokens);
        }
    }

    @Override
    public final int capacity() {
        return capacity;
    }

    @Override
    public final int length() {
        return length;
    }

    /** Commits {@code n} written positions; the runner calls it, under its lock, once the whole forward succeeded. */
    public final void advance(int n) {
        length += n;
    }
}
