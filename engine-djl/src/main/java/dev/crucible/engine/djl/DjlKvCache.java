package dev.crucible.engine.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.NDScope;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.Shape;
import dev.crucible.engine.spi.RunnerKvCache;
import dev.crucible.engine.spi.RunnerResources;

/**
 * One sequence's keys and values: per layer two arrays {@code [kv_heads, allocated, head_dim]} (head-major, so the
 * slice attention reads is a strided view with no copy). Memory grows by doubling as the sequence does, up to the
 * capacity, so a long capacity costs nothing until used. Written only by the runner's serialised forward; positions at
 * or past {@link #length()} hold garbage, which is how a failed forward leaves the cache unchanged.
 */
final class DjlKvCache extends RunnerKvCache {

    private static final int MIN_ALLOCATION = 16;

    private final NDManager manager;
    private final Shape perToken;
    private final NDArray[] keys;
    private final NDArray[] values;
    private int allocated;

    DjlKvCache(RunnerResources owner, NDManager manager, int capacity, int layers, int kvHeads, int headDim) {
        super(owner, capacity);
        this.manager = manager;
        this.perToken = new Shape(kvHeads, headDim);
        this.keys = new NDArray[layers];
        this.values = new NDArray[layers];
    }

    /** Frees the arrays. */
    @Override
    protected void free() {
        manager.close();
    }

    /** Makes room for {@code tokens} positions, keeping what is held; the new arrays outlive the forward's scope. */
    void reserve(int tokens) {
        if (tokens <= allocated) {
            return;
        }
        int grown = Math.min(capacity(), Math.max(tokens, Math.max(MIN_ALLOCATION, 2 * allocated)));
        for (int layer = 0; layer < keys.length; layer++) {
            keys[layer] = regrow(keys[layer], grown);
            values[layer] = regrow(values[layer], grown);
        }
        allocated = grown;
    }

    private NDArray regrow(NDArray old, int size) {
        NDArray fresh = manager.zeros(new Shape(perToken.get(0), size, perToken.get(1)));
        NDScope.unregister(fresh);
        if (old != null) {
            int length = length();
            if (length > 0) {
                fresh.set(prefix(length), old.get(prefix(length)));
            }
            old.close();
        }
        return fresh;
    }

    /** Writes one layer's keys and values {@code [kv_heads, n, head_dim]} at positions {@code [start, start + n)}. */
    void write(int layer, int start, NDArray k, NDArray v) {
        NDIndex at = new NDIndex(":, {}:{}", start, start + k.getShape().get(1));
        keys[layer].set(at, k);
        values[layer].set(at, v);
    }

    /** One layer's keys at positions {@code [0, upTo)}: a view {@code [kv_heads, upTo, head_dim]}. */
    NDArray keys(int layer, int upTo) {
        return keys[layer].get(prefix(upTo));
    }

    /** One layer's values at positions {@code [0, upTo)}. */
    NDArray values(int layer, int upTo) {
        return values[layer].get(prefix(upTo));
    }

    private static NDIndex prefix(int upTo) {
        return new NDIndex(":, :{}", upTo);
    }
}
