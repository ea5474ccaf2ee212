package dev.crucible.application.file;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.file.StoredFile;
import dev.crucible.domain.tenancy.Caller;
import java.io.InputStream;

/** Opens one of the caller's files for download. */
public interface ReadFileContentUseCase {

    /** @param fileId the id as sent */
    record Command(Caller caller, String fileId) {
    }

    /** The file and its open bytes; whoever receives it closes {@code content}. */
    record Content(StoredFile file, InputStream content) {
    }

    Outcome<Content> read(Command command);
}
