package dev.crucible.domain.file;

import dev.crucible.kernel.invariant.NonNull;
import dev.crucible.domain.tenancy.EntityName;
import java.time.Instant;

/**
 * An uploaded file's metadata; its bytes live in the file store under its id.
 *
 * @param id        the file's id
 * @param entity    the tenant that uploaded it; no other entity sees it
 * @param filename  the name the client gave the upload (not a path on the server)
 * @param purpose   what it was uploaded for
 * @param bytes     its size in bytes, at least 1
 * @param createdAt when the upload finished
 */
public record StoredFile(FileId id, EntityName entity, String filename, FilePurpose purpose, long bytes,
        Instant createdAt) {

    public StoredFile {
        NonNull.components(StoredFile.class, id, entity, filename, purpose, createdAt);
        if (bytes < 1) {
            throw new IllegalArgumentException("bytes must be >= 1, got " + bytes);
        }
    }
}
