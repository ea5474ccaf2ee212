package dev.crucible.application.file;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.file.FileId;
import dev.crucible.domain.tenancy.Caller;

/** Deletes one of the caller's files, metadata and bytes. */
public interface DeleteFileUseCase {

    /** @param fileId the id as sent */
    record Command(Caller caller, String fileId) {
    }

    /** The id of the deleted file. */
    Outcome<FileId> delete(Command command);
}
