package dev.crucible.application.tenancy;

import static dev.crucible.application.fakes.Fixtures.ACME;
import static dev.crucible.application.fakes.Fixtures.CLOCK;
import static dev.crucible.application.fakes.Fixtures.GLOBEX;
import static dev.crucible.application.fakes.Fixtures.NOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.application.fakes.InMemoryApiKeyStore;
import dev.crucible.domain.tenancy.ApiKey;
import dev.crucible.domain.tenancy.ApiKeySecret;
import dev.crucible.domain.tenancy.Caller;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ApiKeyServiceTest {

    private final InMemoryApiKeyStore store = new InMemoryApiKeyStore();
    private final ApiKeyService service = new ApiKeyService(store, CLOCK);

    @Test
    void issueStoresOnlyTheHashOfANewKey() {
        ApiKeySecret secret = service.issue(ACME);
        List<ApiKey> keys = store.all();
        assertEquals(1, keys.size());
        ApiKey key = keys.getFirst();
        assertEquals(secret.hash(), key.hash());
        assertNotEquals(secret.value(), key.hash());
        assertEquals(ACME, key.entity());
        assertEquals(NOW, key.createdAt());
    }

    @Test
    void issuedKeysArePrefixedAndDistinct() {
        ApiKeySecret first = service.issue(ACME);
        ApiKeySecret second = service.issue(ACME);
        assertTrue(first.value().startsWith(ApiKeySecret.PREFIX));
        assertNotEquals(first, second);
        assertEquals(2, store.all().size());
    }

    @Test
    void authenticateFindsTheCallerOfAnIssuedKey() {
        ApiKeySecret secret = service.issue(GLOBEX);
        ApiKey key = store.all().getFirst();
        assertEquals(Optional.of(new Caller(GLOBEX, key.id())), service.authenticate(secret));
    }

    @Test
    void authenticateRefusesAnUnknownKey() {
        service.issue(ACME);
        assertEquals(Optional.empty(), service.authenticate(new ApiKeySecret("crk_guess")));
    }

    @Test
    void registerMakesAConfiguredKeyWork() {
        ApiKeySecret configured = new ApiKeySecret("crk_from_config");
        service.register(ACME, configured);
        assertEquals(ACME, service.authenticate(configured).orElseThrow().entity());
        assertEquals(NOW, store.all().getFirst().createdAt());
    }

    @Test
    void registerIsIdempotent() {
        ApiKeySecret configured = new ApiKeySecret("crk_from_config");
        service.register(ACME, configured);
        Caller first = service.authenticate(configured).orElseThrow();
        service.register(ACME, configured);
        assertEquals(1, store.all().size());
        assertEquals(first, service.authenticate(configured).orElseThrow());
    }
}
