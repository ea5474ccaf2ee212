package dev.crucible.application.dataset;

import dev.crucible.domain.dataset.CheckpointRef;
import dev.crucible.domain.dataset.Dataset;
import dev.crucible.domain.feedback.FeedbackId;
import dev.crucible.domain.feedback.ProjectId;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.EntityName;
import java.util.List;
import java.util.Optional;

/**
 * Which checkpoints learned from which datasets, and erasure that checks them first. Every method is one
 * transaction and scoped to one entity. Thread-safe; storage failures are runtime exceptions.
 */
public interface LineageStore {

    /** The datasets checkpoint {@code step} of {@code model} (the caller's) was trained on, oldest first. */
    List<Dataset> datasetsOf(EntityName entity, ModelId model, int step);

    /**
     * Deletes the entity's stored completion {@code id}, after reading which checkpoints learned from it (through a
     * dataset that holds it); with {@code refuse}, deletes nothing when any did.
     *
     * @return empty when the entity has no such completion; otherwise whether it was deleted and the checkpoints
     */
    Optional<Erasure> eraseCompletion(EntityName entity, String id, boolean refuse);

    /**
     * Deletes the feedback rows {@code ids} of {@code project}, after reading which checkpoints learned from them;
     * with {@code refuse}, deletes nothing when any did.
     */
    Erasure eraseFeedback(ProjectId project, List<FeedbackId> ids, boolean refuse);

    /**
     * What an erasure did.
     *
     * @param deleted     how many rows went (0 when refused)
     * @param checkpoints the checkpoints that learned from the rows, model then step order
     */
    record Erasure(int deleted, List<CheckpointRef> checkpoints) {
        public Erasure {
            checkpoints = List.copyOf(checkpoints);
        }
    }
}
