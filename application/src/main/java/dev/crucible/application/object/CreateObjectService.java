package dev.crucible.application.object;

import dev.crucible.application.feedback.SpecLimits;
import dev.crucible.application.feedback.SpecSchema;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.feedback.ProjectId;
import dev.crucible.domain.object.NewObject;
import dev.crucible.domain.object.ObjectClasses;
import dev.crucible.domain.object.ObjectName;
import dev.crucible.domain.object.ObjectVersion;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;

/**
 * Checks the project, name and class, digests the value and stores it unless that digest is stored already. An
 * annotation spec's {@code field_schema} is a tenant's program that every annotation is checked against, so it is
 * held to {@code specLimits} here ({@link SpecSchema}), before it is stored.
 */
public record CreateObjectService(ObjectStore objects, Clock clock, SpecLimits specLimits)
        implements CreateObjectUseCase {

    public CreateObjectService(ObjectStore objects, Clock clock) {
        this(objects, clock, SpecLimits.DEFAULTS);
    }

    @Override
    public Outcome<ObjectVersion> create(Command command) {
        Outcome<ProjectId> project = ProjectId.parse(command.projectId()).then(p -> p.reachableBy(command.caller()));
        return project.then(p -> ObjectName.parse(command.objectId()).then(name ->
                ObjectClasses.baseObjectClass(command.val(), command.builtinObjectClass())
                        .then(baseClass -> checkSpec(command, baseClass))
                        .map(baseClass -> store(command, p, name, baseClass))));
    }

    /** An annotation spec's schema, when the value is one (asked for, or declared by its class). */
    private Outcome<Optional<String>> checkSpec(Command command, Optional<String> baseClass) {
        boolean spec = command.builtinObjectClass().equals(Optional.of(ObjectClasses.ANNOTATION_SPEC))
                || baseClass.equals(Optional.of(ObjectClasses.ANNOTATION_SPEC));
        if (spec && command.val() instanceof Map<?, ?> val && val.get("field_schema") instanceof Map<?, ?> schema) {
            Optional<Refusal> problem = SpecSchema.check(schema, "val.field_schema", specLimits);
            if (problem.isPresent()) {
                return Outcome.refused(problem.get());
            }
        }
        return Outcome.done(baseClass);
    }

    private ObjectVersion store(Command command, ProjectId project, ObjectName name, Optional<String> baseClass) {
        // the database keeps microseconds; truncating here makes the create and a later read agree
        return objects.insertUnlessExists(NewObject.of(project, name, command.val(), baseClass,
                command.caller().userId(), clock.instant().truncatedTo(ChronoUnit.MICROS)));
    }
}
