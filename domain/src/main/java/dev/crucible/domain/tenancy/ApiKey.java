package dev.crucible.domain.tenancy;

import dev.crucible.kernel.invariant.NonNull;
import java.time.Instant;
import java.util.UUID;

/**
 * A stored API key: its id, owner and hash; the secret itself is never kept.
 *
 * @param id key id
 * @param entity the tenant the key belongs to
 * @param hash SHA-256 hex of the secret ({@link ApiKeySecret#hash()})
 * @param createdAt creation time
 */
public record ApiKey(UUID id, EntityName entity, String hash, Instant createdAt) {

    public ApiKey {
        NonNull.components(ApiKey.class, id, entity, hash, createdAt);
    }

    /** A new key record for a freshly generated or configured secret. */
    public static ApiKey issue(EntityName entity, ApiKeySecret secret, Instant now) {
        return new ApiKey(UUID.randomUUID(), entity, secret.hash(), now);
    }

    public Caller asCaller() {
        return new Caller(entity, id);
    }
}
