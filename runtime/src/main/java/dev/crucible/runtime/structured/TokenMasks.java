package dev.crucible.runtime.structured;

import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

/**
 * One constraint's token masks over one vocabulary: per automaton state, the tokens that keep the automaton alive,
 * computed on first use and kept (least recently used dropped past {@link #MAX_CACHED_STATES}). The masks returned
 * are shared: callers must not modify them. A grammar's masks depend on the whole parse so far: the part the
 * terminals under way decide alone is cached, and the rest is found by walking the token trie against the
 * sequence's chart below the nodes where a terminal can end. Thread-safe.
 */
public final class TokenMasks {

    /** Bounds memory: a mask over a 151k vocabulary is about 19 KB. */
    static final int MAX_CACHED_STATES = 512;

    private final OutputConstraint constraint;
    private final TokenVocabulary vocabulary;
    private final Map<Integer, BitSet> cache = new LruMap<>(MAX_CACHED_STATES);

    private final Map<List<Long>, ScanMask> scans = new LruMap<>(MAX_CACHED_STATES);

    public TokenMasks(OutputConstraint constraint, TokenVocabulary vocabulary) {
        this.constraint = constraint;
        this.vocabulary = vocabulary;
    }

    public OutputConstraint constraint() {
        return constraint;
    }

    public TokenVocabulary vocabulary() {
        return vocabulary;
    }

    /** The tokens allowed from {@code state}, without end-of-sequence tokens; shared, do not modify. */
    public BitSet allowed(int state) {
        synchronized (cache) {
            BitSet cached = cache.get(state);
            if (cached != null) {
                return cached;
            }
        }
        BitSet mask = vocabulary.allowed(constraint.dfa(), state);
        synchronized (cache) {
            cache.put(state, mask);
        }
        return mask;
    }

    /**
     * The tokens that keep some parse of {@code chart} alive, without end-of-sequence tokens; a new set. The part
     * decided by the terminals under way alone is cached by those terminals and their states; below the trie nodes
     * where one of them can end, the chart is walked.
     */
    BitSet allowed(EarleyChart chart) {
        long[] scanning = chart.scanning();
        List<Long> key = Arrays.stream(scanning).boxed().toList();
        ScanMask scan;
        synchronized (scans) {
            scan = scans.get(key);
        }
        if (scan == null) {
            ByteGrammar grammar = (ByteGrammar) constraint.language();
            ByteDfa[] dfas = new ByteDfa[scanning.length];
            int[] states = new int[scanning.length];
            for (int j = 0; j < scanning.length; j++) {
                dfas[j] = grammar.terminal(-(int) (scanning[j] >>> 20) - 1);
                states[j] = (int) (scanning[j] & 0xFFFFF);
            }
            scan = vocabulary.scanMask(dfas, states);
            synchronized (scans) {
                scans.put(key, scan);
            }
        }
        return vocabulary.complete(scan, chart);
    }
}
