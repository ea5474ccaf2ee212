package dev.crucible.application.tenancy;

import dev.crucible.domain.tenancy.ApiKeySecret;
import dev.crucible.domain.tenancy.EntityName;

/** Creates API keys: a new random one (shown once), or registers a configured one if it is not yet known. */
public interface IssueApiKeyUseCase {

    /** A new random key for {@code entity}; the caller must show it now, it cannot be read back. */
    ApiKeySecret issue(EntityName entity);

    /** Registers {@code secret} for {@code entity} unless a key with the same secret already exists. */
    void register(EntityName entity, ApiKeySecret secret);
}
