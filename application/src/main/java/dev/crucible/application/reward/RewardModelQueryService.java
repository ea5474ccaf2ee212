package dev.crucible.application.reward;

import dev.crucible.domain.paging.Page;
import dev.crucible.domain.reward.RewardModel;
import dev.crucible.domain.reward.RewardModelId;
import dev.crucible.kernel.refusal.Outcome;

/** Lists, reads and deletes the caller's reward models; another entity's model is "not found". */
public record RewardModelQueryService(RewardModelStore store, RewardScorer scorer)
        implements ListRewardModelsUseCase, GetRewardModelUseCase, DeleteRewardModelUseCase {

    @Override
    public Outcome<Page<RewardModel>> list(ListRewardModelsUseCase.Command command) {
        return store.page(command.caller(), command.page(), RewardModelId::new, "reward models");
    }

    @Override
    public Outcome<RewardModel> get(GetRewardModelUseCase.Command command) {
        return RewardModelLookup.ownedBy(store, command.caller().entity(), command.modelId());
    }

    @Override
    public Outcome<RewardModel> delete(DeleteRewardModelUseCase.Command command) {
        var entity = command.caller().entity();
        return RewardModelLookup.ownedBy(store, entity, command.modelId()).then(model -> {
            if (!store.delete(entity, model.id())) {
                return Outcome.refused(RewardModelLookup.notFound(command.modelId()));
            }
            scorer.forget(model.id());
            return Outcome.done(model);
        });
    }
}
