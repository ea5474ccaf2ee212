package dev.crucible.application.reward;

import dev.crucible.domain.paging.Page;
import dev.crucible.domain.paging.PageRequest;
import dev.crucible.domain.reward.RewardModel;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;

/** Lists the caller's reward models, every version, by creation time. */
public interface ListRewardModelsUseCase {

    record Command(Caller caller, PageRequest page) {
    }

    /** One page; refused (400, {@code after}) when the cursor is none of the caller's models. */
    Outcome<Page<RewardModel>> list(Command command);
}
