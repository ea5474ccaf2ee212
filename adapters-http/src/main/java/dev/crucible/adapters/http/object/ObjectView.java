package dev.crucible.adapters.http.object;

import dev.crucible.domain.object.StoredObject;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.micronaut.serde.config.naming.SnakeCaseStrategy;

/**
 * A stored object version on the wire, as Weave's {@code ObjSchema}: {@code is_latest} is 1 or 0, {@code kind} is
 * always {@code object} and {@code deleted_at} always null (live versions only are read).
 */
@Serdeable(naming = SnakeCaseStrategy.class)
record ObjectView(String projectId, String objectId, String createdAt, @Nullable String deletedAt, String digest,
        int versionIndex, int isLatest, String kind, @Nullable String baseObjectClass, Object val, String svcUserId) {

    static ObjectView of(StoredObject o) {
        return new ObjectView(o.project().toString(), o.name().value(), o.createdAt().toString(), null, o.digest(),
                o.versionIndex(), o.latest() ? 1 : 0, "object", o.baseObjectClass().orElse(null), o.val(),
                o.svcUserId());
    }

    /** The answer to {@code /obj/read}: {@code {"obj": ...}}. */
    @Serdeable
    record Read(ObjectView obj) {
    }
}
