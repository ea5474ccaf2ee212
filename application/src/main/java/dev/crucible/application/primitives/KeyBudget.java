package dev.crucible.application.primitives;

import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How many things each API key has in flight, against one bound per key: a key takes a place before its work is
 * accepted and gives it back when the work ends, so one tenant's backlog cannot grow without limit while others are
 * served. Thread-safe; keys with nothing in flight take no memory.
 */
public final class KeyBudget {

    private final int perKey;
    private final ConcurrentHashMap<UUID, Integer> inFlight = new ConcurrentHashMap<>();

    /** @param perKey the most places one key may hold at once, at least 1 */
    public KeyBudget(int perKey) {
        if (perKey < 1) {
            throw new IllegalArgumentException("perKey must be at least 1, got " + perKey);
        }
        this.perKey = perKey;
    }

    /** Takes a place for {@code key}; false, taking nothing, when it already holds the bound. */
    public boolean tryTake(UUID key) {
        if (inFlight.merge(key, 1, Integer::sum) > perKey) {
            give(key);
            return false;
        }
        return true;
    }

    /** Gives back one place {@code key} took. */
    public void give(UUID key) {
        inFlight.computeIfPresent(key, (k, n) -> n <= 1 ? null : n - 1);
    }

    /** The places {@code key} holds now. */
    public int held(UUID key) {
        return inFlight.getOrDefault(key, 0);
    }
}
