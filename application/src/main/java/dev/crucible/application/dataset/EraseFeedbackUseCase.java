package dev.crucible.application.dataset;

import dev.crucible.application.feedback.PurgeFeedbackCommand;
import dev.crucible.kernel.refusal.Outcome;

/**
 * Purges feedback rows as {@link dev.crucible.application.feedback.PurgeFeedbackUseCase} does and says which
 * checkpoints learned from them; refused as a conflict ({@code ids}) under {@code crucible.lineage.refuse-erasure}
 * when any did, deleting nothing.
 */
public interface EraseFeedbackUseCase {

    Outcome<LineageStore.Erasure> erase(PurgeFeedbackCommand command);
}
