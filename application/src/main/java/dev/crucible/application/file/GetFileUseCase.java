package dev.crucible.application.file;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.file.StoredFile;
import dev.crucible.domain.tenancy.Caller;

/** Reads one of the caller's files' metadata. */
public interface GetFileUseCase {

    /** @param fileId the id as sent; one that is not a file id is "not found" like a missing one */
    record Command(Caller caller, String fileId) {
    }

    Outcome<StoredFile> get(Command command);
}
