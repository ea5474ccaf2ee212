package dev.crucible.application.model;

import dev.crucible.domain.tenancy.Names;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.model.Checkpoint;
import dev.crucible.domain.model.Model;
import dev.crucible.domain.model.ModelCoordinates;
import dev.crucible.domain.tenancy.EntityName;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

/** Validates names and the base model, then inserts the model and its zero adapter atomically. */
public record CreateModelService(ModelStore models, BaseModelCatalog baseModels, Clock clock)
        implements CreateModelUseCase {

    @Override
    public Outcome<Model> create(Command command) {
        EntityName own = command.caller().entity();
        if (command.entity().isPresent() && !command.entity().get().equals(own.value())) {
            return Outcome.refused(Refusal.invalid("entity",
                    "entity must be the API key's entity '" + own + "' or null, got '" + command.entity().get() + "'"));
        }
        for (String[] field : new String[][] {{"project", command.project()}, {"name", command.name()}}) {
            String problem = Names.problem(field[0], field[1]);
            if (problem != null) {
                return Outcome.refused(Refusal.invalid(field[0], problem));
            }
        }
        if (!baseModels.serves(command.baseModel())) {
            return Outcome.refused(Refusal.invalid("base_model", "base_model '" + command.baseModel()
                    + "' is not served here; served base models: " + describe(baseModels)));
        }
        Instant now = clock.instant();
        Model model = Model.create(new ModelCoordinates(own, command.project(), command.name()), command.baseModel(), now);
        Optional<Model> existing = models.insertUnlessExists(model, Checkpoint.initial(model.id(), now));
        if (existing.isEmpty()) {
            return Outcome.done(model);
        }
        Model found = existing.get();
        if (!command.returnExisting()) {
            return Outcome.refused(Refusal.conflict("name", "model " + found.coordinates().entity() + "/"
                    + found.coordinates().project() + "/" + found.coordinates().name() + " already exists"));
        }
        if (!found.baseModel().equals(command.baseModel())) {
            return Outcome.refused(Refusal.conflict("base_model", "model exists with base_model '"
                    + found.baseModel() + "', not '" + command.baseModel() + "'"));
        }
        return Outcome.done(found);
    }

    private static String describe(BaseModelCatalog catalog) {
        return catalog.names().isEmpty() ? "none (configure one with --model NAME=PATH)" : String.join(", ", catalog.names());
    }
}
