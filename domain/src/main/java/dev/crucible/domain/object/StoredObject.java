package dev.crucible.domain.object;

import dev.crucible.domain.feedback.ProjectId;
import dev.crucible.kernel.invariant.NonNull;
import dev.crucible.kernel.invariant.Nullable;
import java.time.Instant;
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
        Instant createdAt, @Nullable Object val, Optional<String> baseObjectClass, String svcUserId) {

    public StoredObject {
        NonNull.components(StoredObject.class, project, name, digest, createdAt, baseObjectClass, svcUserId);
        if (versionIndex < 0) {
            throw new IllegalArgumentException("versionIndex must be >= 0, got " + versionIndex);
        }
    }
}
