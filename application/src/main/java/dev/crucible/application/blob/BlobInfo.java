package dev.crucible.application.blob;

import java.time.Instant;
import java.util.Objects;

/**
 * An object as a listing shows it, for the garbage rule.
 *
 * @param blob the object
 * @param modified when it was last committed (a put of bytes already stored commits them again)
 */
public record BlobInfo(StoredBlob blob, Instant modified) {

    public BlobInfo {
        Objects.requireNonNull(blob, "blob");
        Objects.requireNonNull(modified, "modified");
    }
}
