package dev.crucible.application.dataset;

import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;

/**
 * The reward models a dataset may take its scores from ({@code reward.model}). Thread-safe.
 */
public interface RewardModels {

    /** None: every {@code reward.model} is refused as invalid. */
    RewardModels NONE = (caller, id) -> Outcome.refused(dev.crucible.kernel.refusal.Refusal.invalid("reward.model",
            "this server has no reward models to score with"));

    /** The caller's reward model {@code id} as a score source; not found ({@code reward.model}) when it has none. */
    Outcome<RewardSource> source(Caller caller, String id);
}
