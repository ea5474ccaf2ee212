package dev.crucible.application.reward;

import dev.crucible.domain.reward.RewardModel;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;

/** Reads one of the caller's reward models. */
public interface GetRewardModelUseCase {

    /** @param modelId the id as sent */
    record Command(Caller caller, String modelId) {
    }

    /** The model; 404 when it is not the caller's. */
    Outcome<RewardModel> get(Command command);
}
