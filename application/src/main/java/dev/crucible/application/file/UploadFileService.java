package dev.crucible.application.file;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.file.FileId;
import dev.crucible.domain.file.FileNames;
import dev.crucible.domain.file.FilePurpose;
import dev.crucible.domain.file.StoredFile;
import java.time.Clock;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Checks an upload's purpose and name, writes its bytes (whole or not at all), then records it within the entity's
 * quota. The bytes are written before the metadata, so a listed file always has its bytes; a refused upload's bytes
 * are deleted again.
 *
 * @param maxBytes the largest file accepted, in bytes
 * @param quota how many files, and bytes, each entity may store; an upload past it is refused (413) and leaves nothing
 */
public record UploadFileService(FileStore files, FileContents contents, long maxBytes, FileQuota quota, Clock clock)
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
        Optional<FileStore.Stored> full;
        try {
            full = files.insertWithin(file, quota);
        } catch (RuntimeException e) {
            contents.delete(id);
            throw e;
        }
        if (full.isPresent()) {
            contents.delete(id);
            return Outcome.refused(new Refusal(Refusal.Reason.TOO_LARGE, pastQuota(full.get(), file.bytes()), "file"));
        }
        return Outcome.done(file);
    }

    private String pastQuota(FileStore.Stored stored, long bytes) {
        if (stored.files() >= quota.maxFiles()) {
            return "this entity already stores " + stored.files() + " files, its most (setting "
                    + "crucible.files.max-per-entity); delete some before uploading more";
        }
        return "this file's " + bytes + " bytes would take this entity's files to " + (stored.bytes() + bytes)
                + " bytes, past its most of " + quota.maxBytes() + " (setting crucible.files.max-bytes-per-entity); "
                + "delete some before uploading more";
    }
}
