package dev.crucible.application.tenancy;

import dev.crucible.domain.tenancy.ApiKey;
import java.util.Optional;

/**
 * Where API keys are kept, by hash only.
 *
 * <p>Thread-safe. Infrastructure failures surface as unchecked exceptions.
 */
public interface ApiKeyStore {

    /** Finds the key whose secret hashes to {@code hash}; empty when none does. */
    Optional<ApiKey> findByHash(String hash);

    /** Stores {@code key}; a key with the same hash that already exists is left as it is. */
    void saveIfAbsent(ApiKey key);
}
