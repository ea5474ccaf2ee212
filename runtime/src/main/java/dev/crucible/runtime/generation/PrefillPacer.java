package dev.crucible.runtime.generation;

/**
 * The scheduler's running account of a {@link PrefillBudget}: how many prompt tokens the next step may forward while
 * sequences decode. Paced, it keeps two exponentially weighted means (weight {@value #WEIGHT} for the newest): the
 * time of a forward that only decodes, and the extra time per prompt token of a forward that also prefills (that
 * step's time less the decode mean, over its prompt tokens). The budget is then the tokens whose extra time fits
 * {@code (stallFactor - 1)} decode steps, with a margin of {@value #MARGIN} for noise. The per-token cost includes the
 * prefill's fixed cost (its weights read once per run), which is larger per token for smaller budgets; the budget it
 * gives is a fixed-point iteration that settles where the whole prefill run fits. Rounding that budget up rather than
 * down lets the iteration climb from one token (it would stay there whenever the fixed cost alone took more than half
 * the allowance) and passes the settled step by less than one token's cost, which the margin covers.
 *
 * <p>Nothing is guessed: before a mixed step has been timed the budget is {@value #FIRST_TOKENS} token (a step then
 * costs a decode step plus the prefill run's fixed cost, the least any prefill can), and a budget is at most twice the
 * prompt tokens of the last timed mixed step, so a per-token figure learned from a different prompt (shorter
 * positions, a larger batch) or a stale one is tried in doublings rather than trusted for a whole chunk. Used on the
 * scheduler's thread only; the times are passed in, so the arithmetic is tested with made-up ones.
 */
final class PrefillPacer {

    /** The weight of the newest timing in each mean. */
    static final double WEIGHT = 0.25;
    /** The share of the allowed extra time the budget aims at. */
    static final double MARGIN = 0.8;
    /** The budget before a mixed step has been timed. */
    static final int FIRST_TOKENS = 1;

    private final PrefillBudget budget;
    private final int chunk;
    private double decodeNanos = Double.NaN;
    /** How many sequences the decode-only steps of {@link #decodeNanos} forwarded. */
    private int decodeSequences;
    private double tokenNanos = Double.NaN;
    /** The prompt tokens of the last timed mixed step; 0 before one. */
    private int lastTokens;

    /** @param chunk the most prompt tokens of one sequence in a step, which also caps the budget */
    PrefillPacer(PrefillBudget budget, int chunk) {
        this.budget = budget;
        this.chunk = chunk;
    }

    /**
     * The prompt tokens the next step may forward, over all prefilling sequences, while {@code decoding} sequences
     * decode. Paced, 0 (the prompts sit the step out, so it only decodes) while no decode-only step of at least as
     * few sequences has been timed: the allowance is measured in the decode steps the running streams take now, and
     * one timed with more sequences would overstate it.
     */
    int tokens(int decoding) {
        if (!budget.isPaced()) {
            return budget.stepTokens();
        }
        if (Double.isNaN(decodeNanos) || decoding < decodeSequences) {
            return 0;
        }
        if (Double.isNaN(tokenNanos)) {
            return Math.min(chunk, FIRST_TOKENS);
        }
        double allowed = (budget.stallFactor() - 1) * decodeNanos * MARGIN;
        double tokens = Math.min(Math.ceil(allowed / Math.max(tokenNanos, 1)), 2.0 * lastTokens);
        return (int) Math.clamp(tokens, 1, chunk);
    }

    /**
     * Records a timed forward of {@code decoding} one-token sequences and {@code prompt} prompt tokens, which took
     * {@code nanos}. Only forwards with decoding sequences teach the pacer: a prefill alone is not what it paces.
     */
    void forwarded(int decoding, int prompt, long nanos) {
        if (!budget.isPaced() || decoding == 0) {
            return;
        }
        if (prompt == 0) {
            decodeNanos = decoding == decodeSequences ? mean(decodeNanos, nanos) : nanos;
            decodeSequences = decoding;
        } else if (!Double.isNaN(decodeNanos)) {
            tokenNanos = mean(tokenNanos, Math.max(0, nanos - decodeNanos) / prompt);
            lastTokens = prompt;
        }
    }

    private static double mean(double mean, double sample) {
        return Double.isNaN(mean) ? sample : mean + WEIGHT * (sample - mean);
    }
}
