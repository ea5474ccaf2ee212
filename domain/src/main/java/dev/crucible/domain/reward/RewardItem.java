package dev.crucible.domain.reward;

import dev.crucible.kernel.invariant.NonNull;

/** A (prompt, answer) pair to score with a reward model. */
public record RewardItem(String prompt, String answer) {

    public RewardItem {
        NonNull.components(RewardItem.class, prompt, answer);
    }
}
