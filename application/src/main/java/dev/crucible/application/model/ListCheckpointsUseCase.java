package dev.crucible.application.model;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.paging.Page;
import dev.crucible.domain.paging.PageRequest;
import dev.crucible.domain.model.Checkpoint;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.Caller;

/** Lists a model's checkpoints by step, a cursor page at a time; {@code after} must be one of its checkpoints. */
public interface ListCheckpointsUseCase {

    record Command(Caller caller, ModelId modelId, PageRequest page) {
    }

    Outcome<Page<Checkpoint>> list(Command command);
}
