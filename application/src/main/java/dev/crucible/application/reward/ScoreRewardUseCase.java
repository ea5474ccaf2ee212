package dev.crucible.application.reward;

import dev.crucible.domain.reward.RewardItem;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;
import java.util.List;

/** Scores (prompt, answer) pairs with one of the caller's reward models. */
public interface ScoreRewardUseCase {

    /** @param modelId the model's id as sent; one that is not an id is "not found" like a missing one */
    record Command(Caller caller, String modelId, List<RewardItem> items) {

        public Command {
            items = List.copyOf(items);
        }
    }

    /** One score in [0, 1] per item, in order; 404 for another entity's model, 400/413 for bad or too many items. */
    Outcome<List<Double>> score(Command command);
}
