package dev.crucible.application.primitives;

import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;

/**
 * Deletes a run's saved state {@code kind}/{@code name}: the name goes, and the Crucible checkpoint it named goes too
 * when no other name uses it and the checkpoint rules allow it (the model's latest step is kept; Crucible serves it as
 * the model). A deleted sampler checkpoint is no longer served, by chat or by a sampling session made from it.
 */
public interface DeleteSavedStateUseCase {

    /** What was deleted: whether the Crucible checkpoint went with the name. */
    record Deleted(SavedState state, boolean checkpointDeleted) {
    }

    /** Not found for an unknown or another entity's run or name; invalid for a malformed run id or kind. */
    Outcome<Deleted> delete(Caller caller, String runId, String kind, String name);
}
