package dev.crucible.application.file;

import dev.crucible.domain.refusal.Outcome;
import dev.crucible.domain.file.FileId;
import java.util.Objects;

/**
 * Deletes one of the caller's files: the metadata first (so the file stops being listed or readable at once),
 * then its bytes.
 */
public final class DeleteFileService implements DeleteFileUseCase {

    private final FileStore files;
    private final FileContents contents;

    public DeleteFileService(FileStore files, FileContents contents) {
        this.files = Objects.requireNonNull(files, "files");
        this.contents = Objects.requireNonNull(contents, "contents");
    }

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
