package dev.crucible.application.reward;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.RefusalException;
import java.util.List;
import java.util.Optional;

/** Checks the items, finds the caller's model, and scores with it (its artifact loaded only when not cached). */
public record ScoreRewardService(RewardModelStore store, RewardScorer scorer, RewardLimits limits)
        implements ScoreRewardUseCase {

    @Override
    public Outcome<List<Double>> score(Command command) {
        var refusal = RewardInputs.checkItems(command.items(), limits);
        if (refusal.isPresent()) {
            return Outcome.refused(refusal.get());
        }
        var entity = command.caller().entity();
        return RewardModelLookup.ownedBy(store, entity, command.modelId())
                .map(model -> scorer.score(model.id(), () -> store.artifact(entity, model.id())
                        .orElseThrow(() -> new RefusalException(RewardModelLookup.notFound(command.modelId()))),
                        command.items()));
    }
}
