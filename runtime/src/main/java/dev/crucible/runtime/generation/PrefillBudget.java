package dev.crucible.runtime.generation;

/**
 * How much prompt a step may forward while other sequences decode, so that a long prompt arriving does not freeze the
 * streams already running (vLLM's chunked prefill with a token budget per step). A step forwards every decoding
 * sequence's token plus at most this budget of prompt tokens, shared by the prefilling sequences in running order; a
 * prefilling sequence left without budget sits the step out. With no sequence decoding a prompt goes at the full
 * chunk ({@link GeneratorOptions#prefillChunkTokens()}), since nobody waits for it.
 *
 * <p>Either a fixed number of prompt tokens per step ({@link #fixed}), or paced ({@link #paced}): the scheduler times
 * its forwards and gives each step as many prompt tokens as keep the step within {@code stallFactor} times a step that
 * only decodes, so a running stream waits at most about that many inter-token latencies for its next token; paced, a
 * step forwards one prefilling sequence's piece, sized by a cost model at that piece's position. Pacing
 * adapts to the machine and the model (a 7B model's prompt token costs much more than a 0.5B model's, relative to its
 * decode step); a fixed budget makes the schedule reproducible (tests count steps).
 *
 * @param stepTokens  the fixed budget of prompt tokens per step, or 0 when paced
 * @param stallFactor when paced, the longest step allowed, in steps that only decode (greater than 1); else 0
 */
public record PrefillBudget(int stepTokens, double stallFactor) {

    /** The paced default: running streams wait at most about 3 of their idle inter-token latencies. */
    public static final double DEFAULT_STALL_FACTOR = 3;

    /** No budget: every prefilling sequence forwards a full chunk each step, whoever decodes (the old schedule). */
    public static final PrefillBudget UNBOUNDED = new PrefillBudget(Integer.MAX_VALUE, 0);

    /** Rejects a budget that is neither fixed nor paced. */
    public PrefillBudget {
        boolean fixed = stepTokens > 0 && stallFactor == 0;
        boolean paced = stepTokens == 0 && stallFactor > 1 && Double.isFinite(stallFactor);
        if (!fixed && !paced) {
            throw new IllegalArgumentException("a prefill budget is either a positive number of prompt tokens per step"
                    + " or a stall factor above 1, got stepTokens=" + stepTokens + ", stallFactor=" + stallFactor);
        }
    }

    /** At most {@code stepTokens} prompt tokens per step while another sequence decodes. */
    public static PrefillBudget fixed(int stepTokens) {
        return new PrefillBudget(stepTokens, 0);
    }

    /** As many prompt tokens per step as keep it within {@code stallFactor} decode-only steps. */
    public static PrefillBudget paced(double stallFactor) {
        return new PrefillBudget(0, stallFactor);
    }

    /** Whether the budget follows the forwards' timings. */
    public boolean isPaced() {
        return stepTokens == 0;
    }
}
