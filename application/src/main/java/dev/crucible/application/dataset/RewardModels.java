package dev.crucible.application.dataset;

import dev.crucible.domain.completion.StoredCompletion;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.util.List;

/**
 * The reward models a dataset may take its scores from ({@code reward.model}). Thread-safe.
 */
public interface RewardModels {

    /** None: every {@code reward.model} is refused as invalid. */
    RewardModels NONE = (caller, id, completions) -> Outcome.refused(Refusal.invalid("reward.model",
            "this server has no reward models to score with"));

    /**
     * The scores the caller's reward model {@code id} gives {@code completions}, as a source the builder reads; not
     * found ({@code reward.model}) when the caller has no such model, other refusals naming {@code reward.model}.
     */
    Outcome<RewardSource> source(Caller caller, String id, List<StoredCompletion> completions);
}
