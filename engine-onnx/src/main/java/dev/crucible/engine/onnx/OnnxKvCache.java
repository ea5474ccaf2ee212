package dev.crucible.engine.onnx;

import dev.crucible.engine.spi.RunnerKvCache;
import dev.crucible.engine.spi.RunnerResources;

/**
 * One sequence's keys and values: a row of an {@link OnnxKvPool}, where GroupQueryAttention writes each new token's
 * keys and values in place. Positions at or past {@link #length()} hold garbage, which is how a failed forward leaves
 * the cache unchanged: the length advances only once the whole batch succeeded. Written only under the runner's lock.
 */
final class OnnxKvCache extends RunnerKvCache {

    private final OnnxKvPool pool;
    private int slot = -1;

    OnnxKvCache(RunnerResources owner, OnnxKvPool pool, int capacity) {
        super(owner, capacity);
        this.pool = pool;
    }

    OnnxKvPool pool() {
        return pool;
    }

    int slot() {
        return slot;
    }

    /** Takes a row of the pool; called once, by the runner under its lock. */
    void attach() {
        slot = pool.acquire(this);
    }

    /** Holds the first {@link #length()} positions of {@code source}'s row, where they are: a kept prefix. */
    void keep(OnnxKvCache source) {
        slot = source.slot();
        pool.keep(this);
    }

    /** Takes row {@code row} instead, where the pool has moved this cache's keys and values. */
    void moved(int row) {
        slot = row;
    }

    /** Gives the row back, or lets go of it while another cache still holds it. */
    @Override
    protected void free() {
        pool.release(this);
    }
}
