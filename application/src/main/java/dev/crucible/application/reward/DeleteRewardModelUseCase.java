package dev.crucible.application.reward;

import dev.crucible.domain.reward.RewardModel;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;

/** Deletes one version of the caller's reward models, with its artifact. */
public interface DeleteRewardModelUseCase {

    /** @param modelId the id as sent */
    record Command(Caller caller, String modelId) {
    }

    /** The deleted model; 404 when it is not the caller's. */
    Outcome<RewardModel> delete(Command command);
}
