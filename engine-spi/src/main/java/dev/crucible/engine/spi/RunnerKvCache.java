package dev.crucible.engine.spi;

import dev.crucible.hf.config.ModelConfig;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

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

    /**
     * Refuses a {@link ModelRunner#keepPrefix} the contract does not allow, before anything changes.
     *
     * @param resources what the keeping runner handed out
     * @throws IllegalStateException when the runner is closed
     * @throws IllegalArgumentException naming what is wrong
     */
    public static void checkKeptPrefix(KvCache from, int tokens, RunnerResources resources) {
        resources.requireOpen();
        checkOwn(from, "from", resources);
        checkKeptLength(from, tokens);
    }

    /** Refuses a kept prefix longer than {@code from} holds, or empty. */
    static void checkKeptLength(KvCache from, int tokens) {
        if (tokens < 1 || tokens > from.length()) {
            throw new IllegalArgumentException("tokens must be in [1, " + from.length() + "] (held by from), got "
                    + tokens);
        }
    }

    /**
     * Refuses a {@link ModelRunner#forward} batch the contract does not allow, before anything changes: at least one
     * sequence; each sequence's cache made by this runner, open, in the batch once and with room for its new tokens;
     * every token id in the vocabulary. Adapters are the engine's to check.
     *
     * @param type      the engine's cache type, which every cache this runner makes has
     * @param resources what the runner handed out
     * @return each sequence's cache, in the batch's order
     * @throws IllegalArgumentException naming the sequence ({@code batch[i]}) and what is wrong
     */
    public static <C extends RunnerKvCache> List<C> checkBatch(List<SequenceInput> batch, Class<C> type,
            RunnerResources resources, int vocabSize) {
        if (batch == null || batch.isEmpty()) {
            throw new IllegalArgumentException("batch must hold at least one sequence, got none");
        }
        Set<KvCache> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<C> caches = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            SequenceInput in = batch.get(i);
            String name = "batch[" + i + "]";
            checkOwn(in.cache(), name, resources);
            C cache = type.cast(in.cache());
            if (!seen.add(cache)) {
                throw new IllegalArgumentException(name + ": the same cache is in the batch twice");
            }
            if (in.length() > cache.remaining()) {
                throw new IllegalArgumentException(name + " has " + in.length() + " new tokens but its cache has room "
                        + "for " + cache.remaining() + " (capacity " + cache.capacity() + ", holding " + cache.length()
                        + ")");
            }
            for (int j = 0; j < in.length(); j++) {
                if (in.tokenId(j) < 0 || in.tokenId(j) >= vocabSize) {
                    throw new IllegalArgumentException(name + ".tokenIds[" + j + "] must be in [0, " + vocabSize
                            + "), got " + in.tokenId(j));
                }
            }
            caches.add(cache);
        }
        return caches;
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
