package dev.crucible.application.feedback;

import dev.crucible.domain.feedback.NamedRef;
import dev.crucible.domain.feedback.ProjectId;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** Annotation specs by project and {@code name:version}. */
final class FakeAnnotationSpecs implements AnnotationSpecLookup {

    private final Map<String, Object> specs = new HashMap<>();

    FakeAnnotationSpecs put(ProjectId project, String nameAndVersion, Object spec) {
        specs.put(project + "/" + nameAndVersion, spec);
        return this;
    }

    @Override
    public Optional<Object> findSpec(ProjectId project, NamedRef ref) {
        return Optional.ofNullable(specs.get(project + "/" + ref.name() + ":" + ref.version()));
    }
}
