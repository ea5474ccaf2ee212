package dev.crucible.application.object;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.feedback.ProjectId;
import dev.crucible.domain.object.ObjectName;
import dev.crucible.domain.object.StoredObject;
import dev.crucible.domain.object.VersionSelector;
import java.util.Optional;

/** Resolves the version text ({@link VersionSelector}) and reads it from the store. */
public record ReadObjectService(ObjectStore objects) implements ReadObjectUseCase {

    @Override
    public Outcome<StoredObject> read(Command command) {
        return ProjectId.parse(command.projectId())
                .then(project -> project.reachableBy(command.caller()))
                .then(project -> find(command, project));
    }

    private Outcome<StoredObject> find(Command command, ProjectId project) {
        // no object can have an invalid name, so such a read finds nothing rather than being malformed
        Optional<StoredObject> found = ObjectName.isValid(command.objectId())
                ? objects.find(project, new ObjectName(command.objectId()), VersionSelector.parse(command.digest()))
                : Optional.empty();
        return found.map(Outcome::done).orElseGet(() -> Outcome.refused(Refusal.notFound("object_id",
                "Obj " + command.objectId() + ":" + command.digest() + " not found")));
    }
}
