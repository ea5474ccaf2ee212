package dev.crucible.server.wiring;

import dev.crucible.application.file.DeleteFileService;
import dev.crucible.application.file.FileContents;
import dev.crucible.application.file.FileQuota;
import dev.crucible.application.file.FileQueryService;
import dev.crucible.application.file.FileStore;
import dev.crucible.application.file.UploadFileService;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;
import java.time.Clock;

/**
 * Builds the Files API use cases with {@code new}; an upload may be as large as a request body, and each entity may
 * store {@code crucible.files.max-per-entity} files of {@code crucible.files.max-bytes-per-entity} bytes together.
 */
@Factory
class FileFactory {

    @Singleton
    UploadFileService uploadFile(FileStore files, FileContents contents, CrucibleSettings settings,
            StorageSettings.Files quota, Clock clock) {
        return new UploadFileService(files, contents, settings.maxBodyBytes(),
                new FileQuota(quota.maxPerEntity(), quota.maxBytesPerEntity()), clock);
    }

    @Singleton
    FileQueryService fileQueries(FileStore files, FileContents contents) {
        return new FileQueryService(files, contents);
    }

    @Singleton
    DeleteFileService deleteFile(FileStore files, FileContents contents) {
        return new DeleteFileService(files, contents);
    }
}
