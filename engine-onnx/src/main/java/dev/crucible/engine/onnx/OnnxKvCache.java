package dev.crucible.engine.onnx;

import dev.crucible.engine.spi.KvCache;
import dev.crucible.engine.spi.RunnerResource;
import dev.crucible.engine.spi.RunnerResources;

/**
 * One sequence's keys and values: a row of an {@link OnnxKvPool}, where GroupQueryAttention writes each new token's
 * keys and values in place. Positions at or past {@link #length()} hold garbage, which is how a failed forward leaves
 * the cache unchanged: the length advances only once the whole batch succeeded. Written only under the runner's lock.
 */
final class OnnxKvCache extends RunnerResource implements KvCache {

    private final OnnxKvPool pool;
    private final int capacity;
    private int slot = -1;
    private volatile int length;

    OnnxKvCache(RunnerResources owner, OnnxKvPool pool, int capacity) {
        super(owner);
        this.pool = pool;
        this.capacity = capacity;
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public int length() {
        return length;
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

    /** Gives the row back. */
    @Override
    protected void free() {
        pool.release(slot);
    }

    /** Commits {@code n} written positions once the whole forward has succeeded. */
    void advance(int n) {
        length += n;
    }
}
