package dev.crucible.application.primitives;

import dev.crucible.application.model.DeleteCheckpointsUseCase;
import dev.crucible.domain.model.CheckpointDeletion;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;
import java.util.Set;

/**
 * Forgets the saved state's name, then deletes the checkpoint it named through Crucible's own checkpoint deletion
 * ({@link DeleteCheckpointsUseCase}, whose rule keeps a model's latest step) when no other name still uses it.
 */
public record DeleteSavedStateService(PrimitiveStore store, DeleteCheckpointsUseCase checkpoints)
        implements DeleteSavedStateUseCase {

    @Override
    public Outcome<Deleted> delete(Caller caller, String runId, String kind, String name) {
        return TrainingRunsService.state(store, caller, runId, kind, name).map(state -> {
            store.deleteState(state.run(), state.kind(), state.name());
            boolean gone = !store.stepNamed(state.run(), state.step())
                    && checkpoints.delete(new DeleteCheckpointsUseCase.Command(caller, state.run(),
                            Set.of(state.step()))) instanceof Outcome.Done<CheckpointDeletion> done
                    && done.value().toDelete().contains(state.step());
            return new Deleted(state, gone);
        });
    }
}
