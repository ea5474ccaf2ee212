package dev.crucible.application.reward;

import dev.crucible.domain.reward.RewardModel;
import dev.crucible.domain.reward.RewardModelId;
import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;

/** Finds an entity's reward model by the id a client sent: a malformed id, a missing and another entity's are 404. */
final class RewardModelLookup {

    /** The path parameter every refusal names. */
    static final String ID_PARAM = "reward_model_id";

    private RewardModelLookup() {
    }

    static Outcome<RewardModel> ownedBy(RewardModelStore store, EntityName entity, String id) {
        return RewardModelId.parse(id).flatMap(found -> store.find(entity, found))
                .<Outcome<RewardModel>>map(Outcome::done)
                .orElseGet(() -> Outcome.refused(notFound(id)));
    }

    static Refusal notFound(String id) {
        return Refusal.notFound(ID_PARAM, "No such reward model: " + id);
    }
}
