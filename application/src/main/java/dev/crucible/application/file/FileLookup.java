package dev.crucible.application.file;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.file.FileId;
import dev.crucible.domain.file.StoredFile;
import dev.crucible.domain.tenancy.EntityName;

/**
 * The one way use cases find an entity's file by the id a client sent: a malformed id, a missing file and another
 * entity's file are all "not found", in OpenAI's words.
 */
public final class FileLookup {

    private FileLookup() {
    }

    /** The file {@code fileId} of {@code entity}, or a NOT_FOUND refusal naming {@code param}. */
    public static Outcome<StoredFile> ownedBy(FileStore files, EntityName entity, String fileId, String param) {
        return FileId.parse(fileId).flatMap(id -> files.find(entity, id))
                .<Outcome<StoredFile>>map(Outcome::done)
                .orElseGet(() -> Outcome.refused(Refusal.notFound(param, "No such File object: " + fileId)));
    }
}
