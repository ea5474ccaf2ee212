package dev.crucible.application.reward;

import dev.crucible.domain.reward.RewardItem;
import dev.crucible.domain.reward.RewardModelId;
import java.util.List;
import java.util.function.Supplier;

/**
 * Scores (prompt, answer) pairs with a fitted {@link RewardArtifact} (an out-port). Thread-safe. Each score is the
 * probability, in [0, 1], that the answer is good.
 */
public interface RewardScorer {

    /** Scores {@code items} with {@code artifact}, holding nothing after the call (a fit's own held-out check). */
    List<Double> score(RewardArtifact artifact, List<RewardItem> items);

    /**
     * Scores {@code items} with the stored model {@code id}, whose artifact never changes: the scorer may keep what it
     * built from it (a bounded cache) and calls {@code artifact} only when it has nothing for {@code id}.
     */
    List<Double> score(RewardModelId id, Supplier<RewardArtifact> artifact, List<RewardItem> items);

    /** Forgets what it kept for {@code id} (a deleted model); nothing when it kept nothing. */
    void forget(RewardModelId id);
}
