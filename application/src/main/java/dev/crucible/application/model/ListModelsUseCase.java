package dev.crucible.application.model;

import dev.crucible.domain.model.Model;
import dev.crucible.domain.paging.Page;
import dev.crucible.domain.paging.PageRequest;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.tenancy.Caller;

/** Lists the caller's entity's trainable models in creation order, a cursor page at a time. */
public interface ListModelsUseCase {

    /** @param page {@code after} must be one of the entity's models */
    record Command(Caller caller, PageRequest page) {
    }

    Outcome<Page<Model>> list(Command command);
}
