package dev.crucible.application.model;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.paging.Page;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.model.Checkpoint;
import dev.crucible.domain.model.CheckpointId;
import dev.crucible.domain.model.Model;
import java.util.Optional;

/** Resolves the cursor to a step, then fetches one row more than the page to learn {@code has_more}. */
public record ListCheckpointsService(ModelStore models, CheckpointStore checkpoints) implements ListCheckpointsUseCase {

    @Override
    public Outcome<Page<Checkpoint>> list(Command command) {
        return ModelLookup.ownedBy(models, command.caller(), command.modelId()).then(model -> page(model, command));
    }

    private Outcome<Page<Checkpoint>> page(Model model, Command command) {
        Optional<Integer> afterStep = Optional.empty();
        if (command.page().after().isPresent()) {
            CheckpointId cursor = new CheckpointId(command.page().after().get());
            Optional<Checkpoint> found = checkpoints.find(model.id(), cursor);
            if (found.isEmpty()) {
                return Outcome.refused(Refusal.invalid("after",
                        "after '" + cursor + "' is not a checkpoint of model " + model.id()));
            }
            afterStep = Optional.of(found.get().step());
        }
        return Outcome.done(Page.fromFetch(checkpoints.fetchPage(model.id(), command.page(), afterStep), command.page()));
    }
}
