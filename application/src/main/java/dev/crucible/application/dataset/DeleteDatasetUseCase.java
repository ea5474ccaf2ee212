package dev.crucible.application.dataset;

import dev.crucible.domain.dataset.DatasetId;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;

/**
 * Deletes one of the caller's datasets; refused as a conflict ({@code dataset_id}) naming the checkpoints that
 * learned from it, whose lineage it is, until they are deleted.
 */
public interface DeleteDatasetUseCase {

    Outcome<DatasetId> delete(Caller caller, String id);
}
