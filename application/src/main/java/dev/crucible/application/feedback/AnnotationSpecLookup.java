package dev.crucible.application.feedback;

import dev.crucible.domain.feedback.NamedRef;
import dev.crucible.domain.feedback.ProjectId;
import java.util.Optional;

/**
 * Reads annotation specs: stored objects that say what the {@code value} of annotation feedback must look like.
 * A valid spec is a JSON object with a {@code field_schema} object (a JSON Schema), as Weave's
 * {@code AnnotationSpec}; the caller checks that shape. Implementations are thread-safe; infrastructure failures
 * surface as unchecked exceptions.
 */
public interface AnnotationSpecLookup {

    /**
     * The stored value of the live object that {@code ref} (an object or op ref, already known to be in
     * {@code project}) names, as JSON-shaped Java ({@code Map}, {@code List}, {@code String}, {@code Number},
     * {@code Boolean}); empty when there is no such object in {@code project} (a stored JSON null reads as
     * empty too). Any value may come back: the caller refuses one that is not a valid spec.
     */
    Optional<Object> findSpec(ProjectId project, NamedRef ref);
}
