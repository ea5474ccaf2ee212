package dev.crucible.application.model;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.model.Model;
import dev.crucible.domain.tenancy.Caller;
import java.util.Optional;

/** Creates a trained model (with its step-0 checkpoint), or returns the existing one when asked to. */
public interface CreateModelUseCase {

    /**
     * @param entity the entity to create it in; empty means the caller's
     * @param returnExisting answer with the existing model of the same coordinates instead of a conflict
     */
    record Command(Caller caller, Optional<String> entity, String project, String name, String baseModel,
            boolean returnExisting) {
    }

    Outcome<Model> create(Command command);
}
