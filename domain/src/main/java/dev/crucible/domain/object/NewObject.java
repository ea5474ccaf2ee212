package dev.crucible.domain.object;

import dev.crucible.domain.feedback.ProjectId;
import dev.crucible.kernel.invariant.NonNull;
import dev.crucible.kernel.invariant.Nullable;
import java.time.Instant;
import java.util.Optional;

/**
 * An object version about to be stored; the store gives it its version index, or finds that a version with the
 * same {@code digest} already exists.
 *
 * @param val the value, JSON-shaped ({@code Map}, {@code List}, {@code String}, {@code Number}, {@code Boolean}),
 *     null for a JSON null
 * @param canonicalJson {@link ObjectDigest#CANONICAL} text of {@code val}, the text {@code digest} hashes
 * @param baseObjectClass empty when the object has no base object class
 * @param svcUserId who wrote it ({@link dev.crucible.domain.tenancy.Caller#userId()})
 */
public record NewObject(ProjectId project, ObjectName name, @Nullable Object val, String canonicalJson, String digest,
        Optional<String> baseObjectClass, String svcUserId, Instant createdAt) {

    public NewObject {
        NonNull.components(NewObject.class, project, name, canonicalJson, digest, baseObjectClass, svcUserId,
                createdAt);
    }

    /** A new version of {@code val}, with its canonical text and digest computed here. */
    public static NewObject of(ProjectId project, ObjectName name, Object val, Optional<String> baseObjectClass,
            String svcUserId, Instant createdAt) {
        String json = ObjectDigest.CANONICAL.dumps(val);
        return new NewObject(project, name, val, json, ObjectDigest.ofText(json), baseObjectClass, svcUserId,
                createdAt);
    }
}
