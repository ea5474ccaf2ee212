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

    /** Records a file whose bytes are already in {@link FileContents}. */
    void insert(StoredFile file);

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
