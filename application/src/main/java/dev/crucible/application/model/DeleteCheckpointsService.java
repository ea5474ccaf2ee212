package dev.crucible.application.model;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.model.CheckpointDeletion;
import dev.crucible.domain.model.Model;

/** Plans the deletion with the domain rule, then deletes rows and adapter files. */
public record DeleteCheckpointsService(ModelStore models, CheckpointStore checkpoints, AdapterFiles adapters)
        implements DeleteCheckpointsUseCase {

    @Override
    public Outcome<CheckpointDeletion> delete(Command command) {
        return ModelLookup.ownedBy(models, command.caller(), command.modelId()).then(model -> deleteSteps(model, command));
    }

    private Outcome<CheckpointDeletion> deleteSteps(Model model, Command command) {
        Outcome<CheckpointDeletion> plan =
                CheckpointDeletion.plan(command.steps(), checkpoints.steps(model.id()), model.latestStep());
        if (plan instanceof Outcome.Done<CheckpointDeletion> done && !done.value().toDelete().isEmpty()) {
            checkpoints.delete(model.id(), done.value().toDelete());
            done.value().toDelete().forEach(step -> adapters.deleteStep(model.id(), step));
        }
        return plan;
    }
}
