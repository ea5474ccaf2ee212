package dev.crucible.application.model;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.model.CheckpointDeletion;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.Caller;
import java.util.Set;

/** Deletes checkpoints by step; unknown steps are reported, the latest step is refused. */
public interface DeleteCheckpointsUseCase {

    record Command(Caller caller, ModelId modelId, Set<Integer> steps) {
        public Command {
            steps = Set.copyOf(steps);
        }
    }

    Outcome<CheckpointDeletion> delete(Command command);
}
