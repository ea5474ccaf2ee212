package dev.crucible.testsupport.engine;

import dev.crucible.engine.spi.KvCache;
import dev.crucible.engine.spi.SequenceInput;
import dev.crucible.engine.spi.SequenceLogits;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The cache of a scripted runner, one whose logits are a pure function of the token ids forwarded so far: it holds
 * just those ids. {@link #forward} is such a runner's forward pass once it has checked the batch.
 */
public final class TokenListCache implements KvCache {

    /** The ids forwarded into this cache, oldest first. */
    public final List<Integer> tokens = new ArrayList<>();
    private final Object owner;
    private final int capacity;
    private boolean closed;

    /** @param owner the runner that made the cache, for that runner's checks that a cache is its own */
    public TokenListCache(Object owner, int capacity) {
        this.owner = owner;
        this.capacity = capacity;
    }

    /**
     * Appends each input's ids to its cache and answers the logits {@code model} gives the context after the last
     * one, and after each one where the input asks for every position.
     */
    public static List<SequenceLogits> forward(List<SequenceInput> batch, Function<List<Integer>, float[]> model) {
        List<SequenceLogits> out = new ArrayList<>();
        for (SequenceInput input : batch) {
            TokenListCache cache = (TokenListCache) input.cache();
            List<float[]> positions = new ArrayList<>();
            for (int id : input.tokenIds()) {
                cache.tokens.add(id);
                if (input.allPositions()) {
                    positions.add(model.apply(List.copyOf(cache.tokens)));
                }
            }
            out.add(new SequenceLogits(model.apply(List.copyOf(cache.tokens)), positions));
        }
        return out;
    }

    /** Whether {@code runner} made this cache. */
    public boolean ownedBy(Object runner) {
        return owner == runner;
    }

    /** Whether the cache was closed. */
    public boolean closed() {
        return closed;
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
