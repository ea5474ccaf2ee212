package dev.crucible.application.file;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.paging.Page;
import dev.crucible.domain.file.FileListRequest;
import dev.crucible.domain.file.StoredFile;
import dev.crucible.domain.tenancy.Caller;

/** Lists the caller's files, one page at a time. */
public interface ListFilesUseCase {

    record Command(Caller caller, FileListRequest request) {
    }

    Outcome<Page<StoredFile>> list(Command command);
}
