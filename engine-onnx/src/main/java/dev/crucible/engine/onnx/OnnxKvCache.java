package dev.crucible.engine.onnx;

import dev.crucible.engine.spi.KvCache;

/**
 * One sequence's keys and values: a row of an {@link OnnxKvPool}, where GroupQueryAttention writes each new token's
 * keys and values in place. Positions at or past {@link #length()} hold garbage, which is how a failed forward leaves
 * the cache unchanged: the length advances only once the whole batch succeeded. Written only under the runner's lock.
 */
final class OnnxKvCache implements KvCache {

    private final OnnxModelRunner owner;
    private final OnnxKvPool pool;
    private final int capacity;
    private int slot = -1;
    private volatile int length;
    private volatile boolean closed;

    OnnxKvCache(OnnxModelRunner owner, OnnxKvPool pool, int capacity) {
        this.owner = owner;
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

    @Override
    public void close() {
        owner.release(this);
    }

    boolean belongsTo(OnnxModelRunner runner) {
        return owner == runner;
    }

    boolean isClosed() {
        return closed;
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

    /** Gives the row back; called by the runner under its lock. */
    void free() {
        closed = true;
        pool.release(slot);
    }

    /** Commits {@code n} written positions once the whole forward has succeeded. */
    void advance(int n) {
        length += n;
    }
}
