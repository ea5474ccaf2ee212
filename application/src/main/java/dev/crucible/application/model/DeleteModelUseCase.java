package dev.crucible.application.model;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.Caller;

/** Deletes a model with its checkpoints and adapter files, cancelling its queued and running jobs. */
public interface DeleteModelUseCase {

    record Command(Caller caller, ModelId modelId) {
    }

    /** What was deleted. */
    record Deleted(ModelId modelId, int deletedCheckpoints) {
    }

    Outcome<Deleted> delete(Command command);
}
