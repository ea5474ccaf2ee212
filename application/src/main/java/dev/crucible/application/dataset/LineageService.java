package dev.crucible.application.dataset;

import dev.crucible.application.feedback.PurgeFeedbackCommand;
import dev.crucible.application.model.CheckpointStore;
import dev.crucible.application.model.ModelLookup;
import dev.crucible.application.model.ModelStore;
import dev.crucible.domain.dataset.CheckpointRef;
import dev.crucible.domain.dataset.Dataset;
import dev.crucible.domain.feedback.FeedbackId;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.util.List;
import java.util.Objects;

/**
 * Lineage through datasets: which datasets trained a checkpoint, and erasure of stored completions and feedback rows
 * that names (or, with {@code refuseErasure}, refuses for) the checkpoints that learned from them. The check and the
 * delete are one transaction of the {@link LineageStore}.
 */
public record LineageService(ModelStore models, CheckpointStore checkpoints, LineageStore lineage,
        boolean refuseErasure) implements CheckpointLineageUseCase, EraseStoredCompletionUseCase,
        EraseFeedbackUseCase {

    public LineageService {
        Objects.requireNonNull(models, "models");
        Objects.requireNonNull(checkpoints, "checkpoints");
        Objects.requireNonNull(lineage, "lineage");
    }

    @Override
    public Outcome<List<Dataset>> lineage(Caller caller, ModelId model, int step) {
        return ModelLookup.ownedBy(models, caller, model).then(found -> checkpoints.steps(found.id()).contains(step)
                ? Outcome.done(lineage.datasetsOf(caller.entity(), found.id(), step))
                : Outcome.refused(Refusal.notFound("step", "model " + model + " has no checkpoint at step " + step)));
    }

    @Override
    public Outcome<LineageStore.Erasure> erase(Caller caller, String id) {
        return lineage.eraseCompletion(caller.entity(), id, refuseErasure)
                .map(erasure -> refused(erasure, "completion_id", "stored completion " + id))
                .orElseGet(() -> Outcome.refused(Refusal.notFound("completion_id", "No stored completion found with id '"
                        + (id.length() > 64 ? id.substring(0, 64) + "…" : id) + "'")));
    }

    @Override
    public Outcome<LineageStore.Erasure> erase(PurgeFeedbackCommand command) {
        return command.purge().project().reachableBy(command.caller()).then(project -> {
            List<FeedbackId> ids = command.purge().rowIds();
            return ids.isEmpty() ? Outcome.done(new LineageStore.Erasure(0, List.of()))
                    : refused(lineage.eraseFeedback(project, ids, refuseErasure), "ids", "these feedback rows");
        });
    }

    private Outcome<LineageStore.Erasure> refused(LineageStore.Erasure erasure, String param, String what) {
        if (refuseErasure && !erasure.checkpoints().isEmpty()) {
            List<String> names = erasure.checkpoints().stream().map(CheckpointRef::toString).toList();
            return Outcome.refused(Refusal.conflict(param, what + " trained checkpoints " + names + " (model@step); "
                    + "delete them first (setting crucible.lineage.refuse-erasure)"));
        }
        return Outcome.done(erasure);
    }
}
