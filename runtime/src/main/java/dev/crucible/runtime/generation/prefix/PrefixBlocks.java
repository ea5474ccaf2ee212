package dev.crucible.runtime.generation.prefix;

/**
 * A prompt cut into full blocks of {@value #TOKENS} tokens, each named by a chained hash: block {@code i}'s hash
 * covers the scope's seed and every token up to the end of block {@code i}, so two prompts share the hashes of
 * exactly the blocks of their common full-block prefix (barring collisions, which {@link PrefixCache} rules out by
 * comparing the tokens). A trailing partial block has no hash and is never cached.
 */
public final class PrefixBlocks {

    /** Tokens per block: the unit of matching, of {@code cached_tokens} and of the cache's accounting. */
    public static final int TOKENS = 16;

    private PrefixBlocks() {
    }

    /** The chained hashes of the full blocks of {@code tokens}. */
    static long[] chain(long seed, int[] tokens) {
        long[] hashes = new long[tokens.length / TOKENS];
        long h = seed;
        for (int b = 0; b < hashes.length; b++) {
            for (int t = b * TOKENS; t < (b + 1) * TOKENS; t++) {
                h = mix(h, tokens[t]);
            }
            hashes[b] = h;
        }
        return hashes;
    }

    /** Folds {@code value} into {@code h}: a multiply-xorshift step (the finaliser of SplitMix64). */
    static long mix(long h, long value) {
        long z = (h ^ value) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** How many leading hashes {@code a} and {@code b} share. */
    static int common(long[] a, long[] b) {
        int n = Math.min(a.length, b.length);
        int i = 0;
        while (i < n && a[i] == b[i]) {
            i++;
        }
        return i;
    }
}
