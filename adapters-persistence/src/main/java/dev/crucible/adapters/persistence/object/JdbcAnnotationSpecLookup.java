package dev.crucible.adapters.persistence.object;

import dev.crucible.application.feedback.AnnotationSpecLookup;
import dev.crucible.application.object.ObjectStore;
import dev.crucible.domain.feedback.NamedRef;
import dev.crucible.domain.feedback.ProjectId;
import dev.crucible.domain.object.ObjectName;
import dev.crucible.domain.object.ValuePath;
import dev.crucible.domain.object.VersionSelector;
import jakarta.inject.Singleton;
import java.util.Optional;

/**
 * Annotation specs are stored objects: the ref's name, its version read as a digest, {@code latest} or
 * {@code v<N>} ({@link VersionSelector}), and its edges followed into the value ({@link ValuePath}).
 */
@Singleton
class JdbcAnnotationSpecLookup implements AnnotationSpecLookup {

    private final ObjectStore objects;

    JdbcAnnotationSpecLookup(ObjectStore objects) {
        this.objects = objects;
    }

    @Override
    public Optional<Object> findSpec(ProjectId project, NamedRef ref) {
        if (!ObjectName.isValid(ref.name())) {
            return Optional.empty();
        }
        return objects.find(project, new ObjectName(ref.name()), VersionSelector.parse(ref.version()))
                .flatMap(object -> ValuePath.resolve(object.val(), ref.edges()));
    }
}
