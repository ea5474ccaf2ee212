package dev.crucible.application.file;

import dev.crucible.domain.file.FileId;
import dev.crucible.domain.file.FileListRequest;
import dev.crucible.domain.file.StoredFile;
import dev.crucible.domain.tenancy.EntityName;
import java.util.List;
import java.util.Optional;

/**
 * Where uploaded files' metadata lives. Every read is scoped by entity: another entity's file is absent.
 *
 * <p>Thread-safe; each method is one transaction.
 */
public interface FileStore {

    /** Records a file whose bytes are already in {@link FileContents}, whatever its entity stores. */
    void insert(StoredFile file);

    /**
     * Records a file whose bytes are already in {@link FileContents} when its entity's files, with it, stay within
     * {@code quota}. The check and the insert are one transaction under a lock on the entity, so two uploads of one
     * entity cannot both take its last place.
     *
     * @return empty when recorded; otherwise what the entity stored, which left no room (nothing was recorded)
     */
    Optional<Stored> insertWithin(StoredFile file, FileQuota quota);

    /** What an entity stores: how many files, and their bytes together. */
    record Stored(long files, long bytes) {
    }

    /** The file {@code id} of {@code entity}; empty when it does not exist or belongs to another entity. */
    Optional<StoredFile> find(EntityName entity, FileId id);

    /**
     * Up to {@code request.fetchSize()} files of {@code entity} (with {@code request.purpose()} when given), ordered
     * by creation time and then id in {@code request.order()}, starting after {@code after} (exclusive) when given.
     */
    List<StoredFile> fetchPage(EntityName entity, FileListRequest request, Optional<StoredFile> after);

    /** Deletes the metadata of file {@code id} of {@code entity}; false when there was none. */
    boolean delete(EntityName entity, FileId id);
}
