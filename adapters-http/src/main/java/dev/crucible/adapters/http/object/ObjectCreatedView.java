package dev.crucible.adapters.http.object;

import dev.crucible.domain.object.ObjectVersion;
import io.micronaut.serde.annotation.Serdeable;
import io.micronaut.serde.config.naming.SnakeCaseStrategy;

/** The answer to {@code /obj/create}: {@code {digest, object_id, version_index}}. */
@Serdeable(naming = SnakeCaseStrategy.class)
record ObjectCreatedView(String digest, String objectId, int versionIndex) {

    static ObjectCreatedView of(ObjectVersion v) {
        return new ObjectCreatedView(v.digest(), v.name().value(), v.versionIndex());
    }
}
