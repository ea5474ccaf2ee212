package dev.crucible.runtime.generation.prefix;

import dev.crucible.engine.spi.EngineException;
import dev.crucible.engine.spi.KvCache;
import dev.crucible.engine.spi.ModelRunner;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.SequencedSet;
import java.util.concurrent.atomic.LongAdder;

/**
 * Automatic prefix caching: the keys and values of prompts' full {@link PrefixBlocks blocks}, kept after their
 * prefill so a later prompt of the same {@link PrefixScope} that starts with the same blocks copies them
 * ({@link ModelRunner#copyPrefix}) instead of forwarding them. Each held prefix is a cache of its own, kept from the
 * donor with {@link ModelRunner#keepPrefix} (an engine may keep it where the donor holds it, copying nothing); a longer
 * prefix replaces the shorter ones of its scope it extends. Memory is bounded: at most {@code budgetTokens} tokens in
 * at most {@code maxEntries} caches, the least recently used prefix evicted first. Nothing is held before a prefill
 * completes, so requests admitted together with the same prompt would each forward it; the generator's
 * {@code PrefillSharing} asks {@link #restorable} and {@link #keepable} whether waiting for another's prefill gains
 * blocks.
 *
 * <p>Used only by the scheduling thread; the counters ({@link #snapshot()}) may be read from any thread.
 */
public final class PrefixCache {

    /**
     * The most prefixes a generator holds. An engine may hold each in a row as long as its longest sequence (ONNX's
     * pool), so the count, not only the tokens, bounds memory: 8 rows add at most an eighth to a full batch of 64.
     * Any held prompt serves every prompt that shares its leading blocks, so a few suffice for shared system prompts.
     */
    public static final int MAX_PREFIXES = 8;

    private final ModelRunner runner;
    private final int budgetTokens;
    private final int maxEntries;
    /** Least recently used first. */
    private final SequencedSet<Entry> entries = new LinkedHashSet<>();
    private final LongAdder queriedTokens = new LongAdder();
    private final LongAdder hitTokens = new LongAdder();
    private final LongAdder hits = new LongAdder();
    private final LongAdder evictions = new LongAdder();
    private volatile int heldTokens;
    private volatile int heldEntries;

    /**
     * @param budgetTokens the most tokens held over all prefixes; 0 turns caching off
     * @param maxEntries   the most prefixes held
     */
    public PrefixCache(ModelRunner runner, int budgetTokens, int maxEntries) {
        if (budgetTokens < 0 || maxEntries < 1) {
            throw new IllegalArgumentException("budgetTokens must be at least 0 and maxEntries at least 1, got "
                    + budgetTokens + " and " + maxEntries);
        }
        this.runner = runner;
        this.budgetTokens = budgetTokens;
        this.maxEntries = maxEntries;
    }

    private record Entry(PrefixScope scope, long[] chain, int[] tokens, KvCache cache) {
    }

    /**
     * Copies the longest held full-block prefix of {@code prompt} in {@code scope} into {@code to}, an empty cache,
     * always leaving at least the prompt's last token to forward (its logits are needed); returns the tokens copied,
     * a multiple of {@value PrefixBlocks#TOKENS}, 0 when nothing matched.
     */
    public int restore(PrefixScope scope, int[] prompt, KvCache to) {
        if (budgetTokens == 0) {
            return 0;
        }
        queriedTokens.add(prompt.length);
        Match best = longest(scope, prompt);
        if (best == null) {
            return 0;
        }
        runner.copyPrefix(best.entry.cache, to, best.tokens);
        touch(best.entry);
        hits.increment();
        hitTokens.add(best.tokens);
        return best.tokens;
    }

    /** The tokens {@link #restore} would copy now, without copying, counting or touching anything. */
    public int restorable(PrefixScope scope, int[] prompt) {
        Match best = budgetTokens == 0 ? null : longest(scope, prompt);
        return best == null ? 0 : best.tokens;
    }

    /**
     * The most tokens of {@code prompt} that {@link #restore} can give: its full blocks, less the block that would
     * hold its last token.
     */
    public static int restorableAtMost(int[] prompt) {
        return Math.max(0, prompt.length - 1) / PrefixBlocks.TOKENS * PrefixBlocks.TOKENS;
    }

    /**
     * The tokens {@link #donate} would keep of {@code prompt} once its prefill completes: its full blocks, or none
     * when caching is off or they exceed the budget. Later donations may still evict them.
     */
    public int keepable(int[] prompt) {
        int tokens = prompt.length / PrefixBlocks.TOKENS * PrefixBlocks.TOKENS;
        return tokens > budgetTokens ? 0 : tokens;
    }

    /** A held prefix and how many of its tokens a prompt may restore. */
    private record Match(Entry entry, int tokens) {
    }

    /** The held prefix of {@code scope} sharing the most restorable blocks with {@code prompt}, or null if none. */
    private Match longest(PrefixScope scope, int[] prompt) {
        long[] chain = PrefixBlocks.chain(scope.seed(), Arrays.copyOf(prompt, restorableAtMost(prompt)));
        Entry best = null;
        int bestBlocks = 0;
        for (Entry e : entries) {
            int blocks = PrefixBlocks.common(chain, e.chain);
            if (blocks > bestBlocks && e.scope.equals(scope) && Arrays.equals(e.tokens, 0, blocks
                    * PrefixBlocks.TOKENS, prompt, 0, blocks * PrefixBlocks.TOKENS)) {
                best = e;
                bestBlocks = blocks;
            }
        }
        return best == null ? null : new Match(best, bestBlocks * PrefixBlocks.TOKENS);
    }

    /**
     * Keeps the full blocks of {@code prompt}, which {@code from} holds from position 0 (its prefill is complete),
     * unless a held prefix of the scope covers them already. A prefix longer than the budget is not kept; when the
     * engine cannot make the copy (out of memory), nothing is kept and the request goes on.
     */
    public void donate(PrefixScope scope, int[] prompt, KvCache from) {
        int tokens = prompt.length / PrefixBlocks.TOKENS * PrefixBlocks.TOKENS;
        if (tokens == 0 || tokens > budgetTokens || from.length() < tokens) {
            return;
        }
        int[] kept = Arrays.copyOf(prompt, tokens);
        long[] chain = PrefixBlocks.chain(scope.seed(), kept);
        for (Entry e : entries) {
            if (e.scope.equals(scope) && e.tokens.length >= tokens && Arrays.equals(e.tokens, 0, tokens, kept, 0,
                    tokens)) {
                touch(e);
                return;
            }
        }
        KvCache copy;
        try {
            copy = runner.keepPrefix(from, tokens);
        } catch (EngineException e) {
            return;
        }
        // shorter prefixes of the same scope that this one extends are now redundant
        for (Iterator<Entry> it = entries.iterator(); it.hasNext();) {
            Entry e = it.next();
            if (e.scope.equals(scope) && e.tokens.length <= tokens
                    && Arrays.equals(e.tokens, 0, e.tokens.length, kept, 0, e.tokens.length)) {
                it.remove();
                e.cache.close();
            }
        }
        entries.addLast(new Entry(scope, chain, kept, copy));
        while (held() > budgetTokens || entries.size() > maxEntries) {
            entries.removeFirst().cache.close();
            evictions.increment();
        }
        count();
    }

    /** Frees every held prefix. */
    public void clear() {
        entries.forEach(e -> e.cache.close());
        entries.clear();
        count();
    }

    private void touch(Entry e) {
        entries.remove(e);
        entries.addLast(e);
    }

    private int held() {
        return entries.stream().mapToInt(e -> e.tokens.length).sum();
    }

    private void count() {
        heldTokens = held();
        heldEntries = entries.size();
    }

    /** The counters since start and what is held now. */
    public PrefixCacheSnapshot snapshot() {
        return new PrefixCacheSnapshot(queriedTokens.sum(), hitTokens.sum(), hits.sum(), heldTokens, heldEntries,
                budgetTokens, evictions.sum());
    }
}
