package dev.crucible.application.file;

import dev.crucible.domain.refusal.Outcome;
import dev.crucible.domain.refusal.Refusal;
import dev.crucible.domain.file.FileId;
import dev.crucible.domain.file.FileNames;
import dev.crucible.domain.file.FilePurpose;
import dev.crucible.domain.file.StoredFile;
import java.time.Clock;
import java.util.OptionalLong;

/**
 * Checks an upload's purpose and name, writes its bytes (whole or not at all), then records it. The bytes are
 * written before the metadata, so a listed file always has its bytes.
 *
 * @param maxBytes the largest file accepted, in bytes
 */
public record UploadFileService(FileStore files, FileContents contents, long maxBytes, Clock clock)
        implements UploadFileUseCase {

    public UploadFileService {
        if (maxBytes < 1) {
            throw new IllegalArgumentException("maxBytes must be >= 1, got " + maxBytes);
        }
    }

    @Override
    public Outcome<StoredFile> upload(Command command) {
        if (command.purpose() == null) {
            return Outcome.refused(Refusal.invalid("purpose", "purpose is required, one of " + FilePurpose.names()));
        }
        var purpose = FilePurpose.parse(command.purpose());
        if (purpose.isEmpty()) {
            return Outcome.refused(Refusal.invalid("purpose",
                    "purpose must be one of " + FilePurpose.names() + ", got '" + command.purpose() + "'"));
        }
        if (command.content() == null) {
            return Outcome.refused(Refusal.invalid("file", "file is required: send it as a multipart file part"));
        }
        return FileNames.of(command.filename()).then(name -> store(command, name, purpose.get()));
    }

    private Outcome<StoredFile> store(Command command, String name, FilePurpose purpose) {
        FileId id = FileId.random();
        OptionalLong written = contents.write(id, command.content(), maxBytes);
        if (written.isEmpty()) {
            return Outcome.refused(new Refusal(Refusal.Reason.TOO_LARGE,
                    "file is larger than " + maxBytes + " bytes, the most one upload may hold", "file"));
        }
        if (written.getAsLong() == 0) {
            contents.delete(id);
            return Outcome.refused(Refusal.invalid("file", "file is empty"));
        }
        StoredFile file = new StoredFile(id, command.caller().entity(), name, purpose, written.getAsLong(),
                clock.instant());
        try {
            files.insert(file);
        } catch (RuntimeException e) {
            contents.delete(id);
            throw e;
        }
        return Outcome.done(file);
    }
}
