package dev.crucible.domain.object;

import dev.crucible.domain.feedback.ProjectId;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One stored version of an object, as read.
 *
 * @param versionIndex 0 for the first version of the name in the project, then 1, 2, …
 * @param latest whether this was the newest version when it was read
 * @param val the value, JSON-shaped; null for a JSON null
 * @param baseObjectClass empty when the object has none
 */
public record StoredObject(ProjectId project, ObjectName name, String digest, int versionIndex, boolean latest,
        Instant createdAt, Object val, Optional<String> baseObjectClass, String svcUserId) {

    public StoredObject {
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(digest, "digest");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(baseObjectClass, "baseObjectClass");
        Objects.requireNonNull(svcUserId, "svcUserId");
        if (versionIndex < 0) {
            throw new IllegalArgumentException("versionIndex must be >= 0, got " + versionIndex);
        }
    }
}
