package dev.crucible.application.file;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.file.FileId;

/**
 * Deletes one of the caller's files: the metadata first (so the file stops being listed or readable at once),
 * then its bytes.
 */
public record DeleteFileService(FileStore files, FileContents contents) implements DeleteFileUseCase {

    @Override
    public Outcome<FileId> delete(Command command) {
        return FileLookup.ownedBy(files, command.caller().entity(), command.fileId(), FileQueryService.ID_PARAM)
                .map(file -> {
                    files.delete(file.entity(), file.id());
                    contents.delete(file.id());
                    return file.id();
                });
    }
}
