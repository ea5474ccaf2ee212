package dev.crucible.application.object;

import dev.crucible.domain.refusal.Outcome;
import dev.crucible.domain.feedback.ProjectId;
import dev.crucible.domain.object.NewObject;
import dev.crucible.domain.object.ObjectClasses;
import dev.crucible.domain.object.ObjectName;
import dev.crucible.domain.object.ObjectVersion;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/** Checks the project, name and class, digests the value and stores it unless that digest is stored already. */
public record CreateObjectService(ObjectStore objects, Clock clock) implements CreateObjectUseCase {

    @Override
    public Outcome<ObjectVersion> create(Command command) {
        Outcome<ProjectId> project = ProjectId.parse(command.projectId()).then(p -> p.reachableBy(command.caller()));
        return project.then(p -> ObjectName.parse(command.objectId()).then(name ->
                ObjectClasses.baseObjectClass(command.val(), command.builtinObjectClass()).map(baseClass ->
                        store(command, p, name, baseClass))));
    }

    private ObjectVersion store(Command command, ProjectId project, ObjectName name, Optional<String> baseClass) {
        // the database keeps microseconds; truncating here makes the create and a later read agree
        return objects.insertUnlessExists(NewObject.of(project, name, command.val(), baseClass,
                command.caller().userId(), clock.instant().truncatedTo(ChronoUnit.MICROS)));
    }
}
