package dev.crucible.application.dataset;

import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;

/**
 * Deletes one of the caller's stored completions and says which checkpoints learned from it; when the server refuses
 * erasure under lineage ({@code crucible.lineage.refuse-erasure}), such a deletion is a conflict
 * ({@code completion_id}) naming them, and nothing is deleted. Another entity's completion is not found.
 */
public interface EraseStoredCompletionUseCase {

    Outcome<LineageStore.Erasure> erase(Caller caller, String id);
}
