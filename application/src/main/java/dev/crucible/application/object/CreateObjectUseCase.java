package dev.crucible.application.object;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.object.ObjectVersion;
import dev.crucible.domain.tenancy.Caller;
import java.util.Objects;
import java.util.Optional;

/**
 * Creates a version of a named object in one of the caller's projects (Weave's {@code obj_create}). Creating the
 * same value again is idempotent: it answers the existing version and writes nothing.
 */
public interface CreateObjectUseCase {

    /**
     * @param projectId {@code <entity>/<project>}; the entity must be the caller's
     * @param objectId the object's name
     * @param val the value, JSON-shaped; null for a JSON null
     * @param builtinObjectClass the builtin class to check the value against; empty for none
     */
    record Command(Caller caller, String projectId, String objectId, Object val, Optional<String> builtinObjectClass) {
        public Command {
            Objects.requireNonNull(caller, "caller");
            Objects.requireNonNull(builtinObjectClass, "builtinObjectClass");
        }
    }

    /**
     * The version created or found; refused as invalid for a bad {@code project_id}, {@code object_id},
     * {@code builtin_object_class} or a value that does not fit the class, and as not found for another entity's
     * project.
     */
    Outcome<ObjectVersion> create(Command command);
}
