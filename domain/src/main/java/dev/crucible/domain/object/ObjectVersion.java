package dev.crucible.domain.object;

import java.util.Objects;

/**
 * Which version a create stored or found: its digest and 0-based index.
 *
 * @param created false when a version with the same digest already existed and nothing was written
 */
public record ObjectVersion(ObjectName name, String digest, int versionIndex, boolean created) {

    public ObjectVersion {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(digest, "digest");
        if (versionIndex < 0) {
            throw new IllegalArgumentException("versionIndex must be >= 0, got " + versionIndex);
        }
    }
}
