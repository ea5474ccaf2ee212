package dev.crucible.application.model;

import dev.crucible.domain.model.Model;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.paging.Page;
import dev.crucible.kernel.refusal.Outcome;

/** Resolves the cursor to one of the entity's models, then fetches one row more than the page to learn {@code has_more}. */
public record ListModelsService(ModelStore models) implements ListModelsUseCase {

    @Override
    public Outcome<Page<Model>> list(Command command) {
        return models.page(command.caller(), command.page(), ModelId::new, "models");
    }
}
