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

    /**
     * Refuses a {@link ModelRunner#copyPrefix} the contract does not allow, before anything changes.
     *
     * @param resources what the copying runner handed out
     * @throws IllegalStateException when the runner is closed
     * @throws IllegalArgumentException naming what is wrong
     */
    public static void checkPrefixCopy(KvCache from, KvCache to, int tokens, RunnerResources resources) {
        resources.requireOpen();
        checkOwn(from, "from", resources);
        checkOwn(to, "to", resources);
        if (from == to) {
            throw new IllegalArgumentException("from and to must be different caches");
        }
        if (to.length() != 0) {
            throw new IllegalArgumentException("to must be empty, but it holds " + to.length() + " tokens");
        }
        if (tokens < 1 || tokens > from.length() || tokens > to.capacity()) {
            throw new IllegalArgumentException("tokens must be in [1, " + Math.min(from.length(), to.capacity())
                    + "] (held by from, and fitting to's capacity " + to.capacity() + "), got " + tokens);
        }
    }

    private static void checkOwn(KvCache cache, String name, RunnerResources resources) {
        if (!(cache instanceof RunnerKvCache own) || !own.belongsTo(resources)) {
            throw new IllegalArgumentException(name + ": the cache was not made by this model runner");
        }
        if (own.isClosed()) {
            throw new IllegalArgumentException(name + ": the cache is closed");
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
