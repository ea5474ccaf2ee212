package dev.crucible.domain.reward;

import dev.crucible.kernel.invariant.NonNull;

/**
 * One labelled example a reward model learns from: an answer to a prompt, and whether it was good.
 *
 * @param prompt   the prompt's text (may be empty)
 * @param answer   the answer's text (may be empty)
 * @param positive true when the answer was judged good
 */
public record RewardExample(String prompt, String answer, boolean positive) {

    public RewardExample {
        NonNull.components(RewardExample.class, prompt, answer);
    }
}
