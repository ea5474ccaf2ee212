package dev.crucible.application.object;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.object.StoredObject;
import dev.crucible.domain.tenancy.Caller;
import java.util.Objects;

/** Reads one version of a named object in one of the caller's projects (Weave's {@code obj_read}). */
public interface ReadObjectUseCase {

    /**
     * @param projectId {@code <entity>/<project>}; the entity must be the caller's
     * @param digest a digest, {@code latest}, or an index alias {@code v<N>}
     */
    record Command(Caller caller, String projectId, String objectId, String digest) {
        public Command {
            Objects.requireNonNull(caller, "caller");
            Objects.requireNonNull(objectId, "objectId");
            Objects.requireNonNull(digest, "digest");
        }
    }

    /**
     * The version; refused as invalid for a malformed {@code project_id}, and as not found for another entity's
     * project or when there is no such object or version.
     */
    Outcome<StoredObject> read(Command command);
}
