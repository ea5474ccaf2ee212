package dev.crucible.runtime.generation;

import dev.crucible.engine.spi.KvCache;
import java.util.ArrayList;
import java.util.List;

/** A cache that just remembers its tokens. */
public final class FakeKvCache implements KvCache {

    final FakeModelRunner owner;
    public final List<Integer> tokens = new ArrayList<>();
    private final int capacity;
    public boolean closed;

    FakeKvCache(FakeModelRunner owner, int capacity) {
        this.owner = owner;
        this.capacity = capacity;
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public synchronized int length() {
        return tokens.size();
    }

    @Override
    public void close() {
        closed = true;
    }
}
