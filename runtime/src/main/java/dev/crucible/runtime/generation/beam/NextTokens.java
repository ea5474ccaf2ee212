package dev.crucible.runtime.generation.beam;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.runtime.generation.logprobs.TokenLogprob;
import java.util.List;

/**
 * What beam search asks the model at each step: the most likely next tokens after each of some token sequences.
 * Called once per step with every live beam, so an implementation can run them as one batch; called from one thread
 * at a time.
 */
@FunctionalInterface
public interface NextTokens {

    /**
     * For each of {@code sequences} (the prompt followed by a beam's tokens, in order), at least its {@code count}
     * most likely next tokens with their logprobs under the raw model distribution, in any order; fewer only when the
     * vocabulary is smaller, and none for a sequence whose step was cancelled. More are the most likely ones too. Refused when the step cannot run (the model is
     * overloaded); a refusal ends the search with it.
     */
    Outcome<List<List<TokenLogprob>>> next(List<int[]> sequences, int count);
}
