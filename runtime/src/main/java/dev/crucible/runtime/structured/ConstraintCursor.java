package dev.crucible.runtime.structured;

import dev.crucible.kernel.refusal.RefusalException;
import java.util.BitSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * Where one sequence stands in its constraint: which tokens it may sample next and how each moves it. End-of-sequence
 * tokens are allowed exactly when the output so far is a whole match (and {@code min_tokens} are out), so a
 * sequence can stop only on a complete output; once nothing more may follow they are the only tokens left. Not
 * thread-safe: one cursor per sequence. A regular constraint's position is an automaton state; a grammar's is an
 * {@link EarleyChart}, whose work for one token (its mask, then its advance) is bounded by the grammar's
 * {@link ConstraintBudgets#maxParseWork()}: past it the sequence's request ends with a refusal naming the setting,
 * instead of holding the model's shared generation step. Given an executor, a grammar's next mask is computed on it
 * as soon as a token is taken ({@link #ready()} says when it is done), so the generation step never waits for a
 * grammar: a sequence whose mask is not ready sits the step out.
 */
public final class ConstraintCursor {

    private final TokenMasks masks;
    private final Set<Integer> endIds;
    private final int minTokens;
    private final EarleyChart chart;
    private final Optional<Executor> maskWorker;
    private CompletableFuture<BitSet> nextMask;
    private int state;
    private int sampled;

    /**
     * @param endIds    the tokens that end the sequence (EOS ids; empty under {@code ignore_eos})
     * @param minTokens before this many tokens, ending is not allowed
     */
    public ConstraintCursor(TokenMasks masks, Set<Integer> endIds, int minTokens) {
        this(masks, endIds, minTokens, Optional.empty());
    }

    /**
     * @param maskWorker where a grammar's next mask is computed after each token; empty: on the caller's thread, in
     *                   {@link #allowed()}
     */
    public ConstraintCursor(TokenMasks masks, Set<Integer> endIds, int minTokens, Optional<Executor> maskWorker) {
        this.maskWorker = maskWorker;
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
        BitSet mask = chart == null ? masks.allowed(state) : grammarMask();
        nextMask = null;
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
            boolean moved = bytes.length > 0 && bounded(() -> chart.pushAll(bytes));
            if (moved && maskWorker.isPresent()) {
                nextMask = CompletableFuture.supplyAsync(() -> bounded(() -> masks.allowed(chart)), maskWorker.get());
            }
            return moved;
        }
        int next = bytes.length == 0 ? ByteDfa.DEAD : masks.constraint().dfa().step(state, bytes);
        if (next == ByteDfa.DEAD) {
            return false;
        }
        state = next;
        return true;
    }

    /**
     * Whether {@link #allowed()} answers without waiting: always for a regular constraint; for a grammar, once the
     * mask being computed on the worker is done. The chart is the worker's until then.
     */
    public boolean ready() {
        return nextMask == null || nextMask.isDone();
    }

    /** The mask being computed on the worker, if any (to wait for one of several). */
    public Optional<CompletableFuture<BitSet>> pending() {
        return Optional.ofNullable(nextMask);
    }

    private BitSet grammarMask() {
        if (nextMask == null) {
            return bounded(() -> masks.allowed(chart));
        }
        try {
            return nextMask.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
    }

    /**
     * Runs one token's parse under the grammar's budget.
     *
     * @throws RefusalException past the budget, for the request's {@code structured_outputs}
     */
    private <T> T bounded(Supplier<T> parse) {
        chart.budget(((ByteGrammar) masks.constraint().language()).maxParseWork());
        try {
            return parse.get();
        } catch (ParseBudgetException e) {
            throw RefusalException.invalid("structured_outputs", e.getMessage() + " (an ambiguous grammar, "
                    + "such as x ::= x x, costs more with every byte); the bound is "
                    + ConstraintBudgets.MAX_PARSE_WORK_SETTING);
        }
    }

    /** Whether the output so far is a whole match. */
    public boolean complete() {
        return chart == null ? masks.constraint().dfa().accepts(state) : chart.accepts();
    }
}
