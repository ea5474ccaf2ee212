package dev.crucible.application.model;

import dev.crucible.domain.model.Model;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.paging.Page;
import dev.crucible.domain.refusal.Outcome;
import dev.crucible.domain.refusal.Refusal;
import java.util.Optional;

/** Resolves the cursor to one of the entity's models, then fetches one row more than the page to learn {@code has_more}. */
public record ListModelsService(ModelStore models) implements ListModelsUseCase {

    @Override
    public Outcome<Page<Model>> list(Command command) {
        Optional<Model> after = Optional.empty();
        if (command.page().after().isPresent()) {
            ModelId cursor = new ModelId(command.page().after().get());
            after = models.find(command.caller().entity(), cursor);
            if (after.isEmpty()) {
                return Outcome.refused(Refusal.invalid("after", "after '" + cursor + "' is not one of your models"));
            }
        }
        return Outcome.done(Page.fromFetch(models.fetchPage(command.caller().entity(), command.page(), after),
                command.page()));
    }
}
