package dev.crucible.adapters.persistence.tenancy;

import static dev.crucible.adapters.persistence.StoreContext.ADA;
import static dev.crucible.adapters.persistence.StoreContext.BOB;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.adapters.persistence.StoreContext;
import dev.crucible.application.tenancy.ApiKeyStore;
import dev.crucible.domain.tenancy.ApiKey;
import dev.crucible.domain.tenancy.ApiKeySecret;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** API keys on a real PostgreSQL: found by hash only, and a key saved twice stays the first. */
class JdbcApiKeyStoreIT {

    @AutoClose
    private final StoreContext stores = StoreContext.start();
    private final ApiKeyStore keys = stores.bean(ApiKeyStore.class);

    @Test
    void aKeyIsFoundByItsHashAndSavedOnce() {
        ApiKeySecret secret = ApiKeySecret.generate();
        // microseconds: what a timestamptz column keeps
        ApiKey key = ApiKey.issue(ADA, secret, Instant.now().truncatedTo(ChronoUnit.MICROS));

        keys.saveIfAbsent(key);
        keys.saveIfAbsent(new ApiKey(key.id(), BOB, key.hash(), key.createdAt()));

        assertEquals(Optional.of(key), keys.findByHash(secret.hash()));
        assertEquals(Optional.empty(), keys.findByHash(ApiKeySecret.generate().hash()));
    }
}
