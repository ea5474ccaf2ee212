package dev.crucible.application.model;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.model.Model;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.Caller;

/** The one way use cases find the caller's model: another entity's model is "not found", like a missing one. */
public final class ModelLookup {

    private ModelLookup() {
    }

    public static Outcome<Model> ownedBy(ModelStore models, Caller caller, ModelId id) {
        return models.find(caller.entity(), id)
                .<Outcome<Model>>map(Outcome::done)
                .orElseGet(() -> Outcome.refused(Refusal.notFound("model_id", "model " + id + " not found")));
    }
}
