package dev.crucible.runtime.structured;

import java.util.BitSet;
import java.util.Set;

/**
 * Where one sequence stands in its constraint: which tokens it may sample next and how each moves it. End-of-sequence
 * tokens are allowed exactly when the output so far is a whole match (and {@code min_tokens} are out), so a
 * sequence can stop only on a complete output; once nothing more may follow they are the only tokens left. Not
 * thread-safe: one cursor per sequence. A regular constraint's position is an automaton state; a grammar's is an
 * {@link EarleyChart}.
 */
public final class ConstraintCursor {

    private final TokenMasks masks;
    private final Set<Integer> endIds;
    private final int minTokens;
    private final EarleyChart chart;
    private int state;
    private int sampled;

    /**
     * @param endIds    the tokens that end the sequence (EOS ids; empty under {@code ignore_eos})
     * @param minTokens before this many tokens, ending is not allowed
     */
    public ConstraintCursor(TokenMasks masks, Set<Integer> endIds, int minTokens) {
        this.masks = masks;
        this.endIds = Set.copyOf(endIds);
        this.minTokens = minTokens;
        if (masks.constraint().language() instanceof ByteGrammar grammar) {
            this.chart = new EarleyChart(grammar);
        } else {
            this.chart = null;
            this.state = masks.constraint().dfa().start();
        }
    }

    /** The tokens that may come next; empty when the constraint is complete and the sequence cannot end by a token. */
    public BitSet allowed() {
        BitSet mask = chart == null ? masks.allowed(state) : masks.allowed(chart);
        if (!complete() || endIds.isEmpty() || sampled < minTokens) {
            return mask;
        }
        BitSet withEnd = (BitSet) mask.clone();
        endIds.forEach(withEnd::set);
        return withEnd;
    }

    /** Moves past a sampled token; false when the token was not allowed (the automaton died). */
    public boolean advance(int tokenId) {
        sampled++;
        if (endIds.contains(tokenId) && complete()) {
            return true;
        }
        if (tokenId < 0 || tokenId >= masks.vocabulary().size()) {
            return false;
        }
        byte[] bytes = masks.vocabulary().bytes(tokenId);
        if (chart != null) {
            return bytes.length > 0 && chart.pushAll(bytes);
        }
        int next = bytes.length == 0 ? ByteDfa.DEAD : masks.constraint().dfa().step(state, bytes);
        if (next == ByteDfa.DEAD) {
            return false;
        }
        state = next;
        return true;
    }

    /** Whether the output so far is a whole match. */
    public boolean complete() {
        return chart == null ? masks.constraint().dfa().accepts(state) : chart.accepts();
    }
}
