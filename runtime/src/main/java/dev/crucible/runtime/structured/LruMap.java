package dev.crucible.runtime.structured;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A map that keeps at most {@code capacity} entries, dropping the least recently used (read or written) when one more
 * is put: the bound of every compile and mask cache of the runtime. Not thread-safe; callers that share one
 * synchronise on it.
 *
 * @param <K> the key
 * @param <V> the cached value
 */
public final class LruMap<K, V> extends LinkedHashMap<K, V> {

    private final int capacity;

    /** @throws IllegalArgumentException for a capacity below 1 */
    public LruMap(int capacity) {
        super(16, 0.75f, true);
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
        }
        this.capacity = capacity;
    }

    @Override
    protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
        return size() > capacity;
    }
}
