package dev.crucible.runtime.generation.prefix;

import static dev.crucible.runtime.generation.FakeTokenizer.VOCAB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.engine.spi.KvCache;
import dev.crucible.engine.spi.SequenceInput;
import dev.crucible.runtime.generation.FakeModelRunner;
import dev.crucible.testsupport.engine.TokenListCache;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PrefixCacheTest {

    private static final PrefixScope SCOPE = new PrefixScope("team", Optional.empty(), null);
    private final FakeModelRunner runner = new FakeModelRunner(VOCAB, 256, context -> new float[VOCAB]);

    private static int[] tokens(int length, int seed) {
        return IntStream.range(0, length).map(i -> 1 + (seed * 7 + i * i) % (VOCAB - 1)).toArray();
    }

    /** A cache that has forwarded {@code prompt}. */
    private KvCache filled(int[] prompt) {
        KvCache cache = runner.newCache(prompt.length);
        runner.forward(List.of(SequenceInput.of(cache, prompt)));
        return cache;
    }

    /** Restores {@code prompt} into a fresh cache; returns the tokens copied, checking the copy holds them. */
    private int restore(PrefixCache cache, PrefixScope scope, int[] prompt) {
        TokenListCache to = (TokenListCache) runner.newCache(prompt.length);
        int tokens = cache.restore(scope, prompt, to);
        assertEquals(Arrays.stream(prompt).limit(tokens).boxed().toList(), to.tokens);
        return tokens;
    }

    @Test
    void blockHashesAreChainedSoEqualBlocksAfterDifferentOnesHashApart() {
        int[] a = tokens(48, 1);
        int[] b = a.clone();
        b[3] = b[3] == 1 ? 2 : 1;
        long[] ha = PrefixBlocks.chain(7, a);
        long[] hb = PrefixBlocks.chain(7, b);
        assertEquals(3, ha.length);
        assertEquals(0, PrefixBlocks.common(ha, hb), "a change in block 0 changes every later hash");
        assertEquals(2, PrefixBlocks.common(ha, PrefixBlocks.chain(7, Arrays.copyOf(a, 47))));
        assertNotEquals(ha[0], PrefixBlocks.chain(8, a)[0], "the seed (scope) takes part");
        assertNotEquals(SCOPE.seed(), new PrefixScope("team", Optional.of("s"), null).seed());
    }

    @Test
    void restoresTheLongestHeldMatchLeavingTheLastTokenToForward() {
        PrefixCache cache = new PrefixCache(runner, 1024, 8);
        int[] prompt = tokens(70, 2);
        cache.donate(SCOPE, Arrays.copyOf(prompt, 20), filled(Arrays.copyOf(prompt, 20)));
        assertEquals(16, restore(cache, SCOPE, prompt));
        cache.donate(SCOPE, prompt, filled(prompt));
        assertEquals(64, restore(cache, SCOPE, prompt), "70 tokens: 4 full blocks, all usable");
        assertEquals(48, restore(cache, SCOPE, Arrays.copyOf(prompt, 64)), "the 4th block holds the last token");
        assertEquals(0, restore(cache, SCOPE, Arrays.copyOf(prompt, 16)));
        assertEquals(1, cache.snapshot().heldPrefixes(), "the longer prefix replaced the shorter one it extends");
        assertEquals(64, cache.snapshot().heldTokens());
        assertEquals(3, cache.snapshot().hits());
        assertEquals(16 + 64 + 48, cache.snapshot().hitTokens());
    }

    @Test
    void aScopeSeesOnlyItsOwnPrefixes() {
        PrefixCache cache = new PrefixCache(runner, 1024, 8);
        int[] prompt = tokens(40, 3);
        cache.donate(SCOPE, prompt, filled(prompt));
        assertEquals(0, restore(cache, new PrefixScope("other", Optional.empty(), null), prompt));
        assertEquals(0, restore(cache, new PrefixScope("team", Optional.of("salt"), null), prompt));
        assertEquals(32, restore(cache, new PrefixScope("team", Optional.empty(), null), prompt));
    }

    @Test
    void evictsTheLeastRecentlyUsedPrefixFirst() {
        PrefixCache cache = new PrefixCache(runner, 64, 8);
        int[] a = tokens(33, 4);
        int[] b = tokens(33, 5);
        int[] c = tokens(33, 6);
        cache.donate(SCOPE, a, filled(a));
        cache.donate(SCOPE, b, filled(b));
        assertEquals(32, restore(cache, SCOPE, a), "a is now the most recently used");
        cache.donate(SCOPE, c, filled(c));
        assertEquals(1, cache.snapshot().evictions());
        assertEquals(0, restore(cache, SCOPE, b));
        assertEquals(32, restore(cache, SCOPE, a));
        assertEquals(32, restore(cache, SCOPE, c));
        assertTrue(runner.caches.stream().filter(TokenListCache::closed).count() >= 1, "the evicted cache is freed");
    }

    @Test
    void holdsAtMostMaxEntriesPrefixesAndNothingLongerThanTheBudget() {
        PrefixCache cache = new PrefixCache(runner, 1024, 2);
        for (int seed = 0; seed < 3; seed++) {
            int[] p = tokens(17, 10 + seed);
            cache.donate(SCOPE, p, filled(p));
        }
        assertEquals(2, cache.snapshot().heldPrefixes());
        PrefixCache small = new PrefixCache(runner, 16, 8);
        int[] p = tokens(40, 1);
        small.donate(SCOPE, p, filled(p));
        assertEquals(0, small.snapshot().heldTokens());
    }

    @Test
    void aZeroBudgetCachesNothingAndCountsNoQueries() {
        PrefixCache off = new PrefixCache(runner, 0, 8);
        int[] p = tokens(40, 1);
        off.donate(SCOPE, p, filled(p));
        assertEquals(0, restore(off, SCOPE, p));
        assertEquals(new PrefixCacheSnapshot(0, 0, 0, 0, 0, 0, 0), off.snapshot());
        assertThrows(IllegalArgumentException.class, () -> new PrefixCache(runner, -1, 8));
    }

    @Test
    void clearFreesEveryHeldPrefix() {
        PrefixCache cache = new PrefixCache(runner, 1024, 8);
        int[] p = tokens(40, 1);
        cache.donate(SCOPE, p, filled(p));
        cache.clear();
        assertEquals(0, cache.snapshot().heldTokens());
        assertEquals(0, restore(cache, SCOPE, p));
    }

    @Test
    void restorableTellsWhatRestoreWouldCopyWithoutCopyingOrCounting() {
        PrefixCache cache = new PrefixCache(runner, 1024, 8);
        int[] prompt = tokens(70, 2);
        assertEquals(0, cache.restorable(SCOPE, prompt));
        cache.donate(SCOPE, Arrays.copyOf(prompt, 40), filled(Arrays.copyOf(prompt, 40)));
        int copies = runner.copies.size();
        assertEquals(32, cache.restorable(SCOPE, prompt));
        assertEquals(16, cache.restorable(SCOPE, Arrays.copyOf(prompt, 32)), "the last token's block stays");
        assertEquals(0, cache.restorable(new PrefixScope("other", Optional.empty(), null), prompt));
        assertEquals(copies, runner.copies.size());
        assertEquals(0, cache.snapshot().queriedTokens());
        assertEquals(32, restore(cache, SCOPE, prompt));
    }

    @Test
    void keepableIsThePromptsFullBlocksWithinTheBudget() {
        assertEquals(32, new PrefixCache(runner, 1024, 8).keepable(tokens(40, 1)));
        assertEquals(0, new PrefixCache(runner, 16, 8).keepable(tokens(40, 1)), "over the budget nothing is kept");
        assertEquals(0, new PrefixCache(runner, 0, 8).keepable(tokens(40, 1)), "caching off");
        assertEquals(48, PrefixCache.restorableAtMost(tokens(49, 1)));
        assertEquals(32, PrefixCache.restorableAtMost(tokens(48, 1)));
        assertEquals(0, PrefixCache.restorableAtMost(new int[0]));
    }
}
