package dev.crucible.domain.tenancy;

import java.util.Objects;
import java.util.UUID;

/**
 * Who is calling: the entity whose data the request may see, and the key that proved it.
 *
 * @param entity the tenant
 * @param keyId the id of the API key used (never the key itself)
 */
public record Caller(EntityName entity, UUID keyId) {

    public Caller {
        Objects.requireNonNull(entity, "entity");
        Objects.requireNonNull(keyId, "keyId");
    }

    /** The user id written on feedback rows: stable per key, reveals nothing of the secret. */
    public String userId() {
        return entity.value() + ":" + keyId;
    }
}
