package dev.crucible.application.file;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.file.StoredFile;
import dev.crucible.domain.tenancy.Caller;
import java.io.InputStream;

/** Stores an upload as one of the caller's files. */
public interface UploadFileUseCase {

    /**
     * @param filename the client's file name, or null when it sent none
     * @param purpose  the purpose as sent (OpenAI's names), or null when missing
     * @param content  the file's bytes; read to the end here, closed by the caller
     */
    record Command(Caller caller, String filename, String purpose, InputStream content) {
    }

    Outcome<StoredFile> upload(Command command);
}
