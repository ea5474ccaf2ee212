package dev.crucible.domain.tenancy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ApiKeyTest {

    private static final EntityName ACME = new EntityName("acme");
    private static final Instant NOW = Instant.parse("2025-03-01T10:00:00Z");

    @Test
    void issueKeepsOnlyTheHashOfTheSecret() {
        ApiKeySecret secret = new ApiKeySecret("crk_abc");
        ApiKey key = ApiKey.issue(ACME, secret, NOW);
        assertEquals(secret.hash(), key.hash());
        assertEquals(ACME, key.entity());
        assertEquals(NOW, key.createdAt());
    }

    @Test
    void issuedKeysGetFreshIds() {
        ApiKeySecret secret = new ApiKeySecret("crk_abc");
        assertNotEquals(ApiKey.issue(ACME, secret, NOW).id(), ApiKey.issue(ACME, secret, NOW).id());
    }

    @Test
    void asCallerCarriesEntityAndKeyId() {
        ApiKey key = ApiKey.issue(ACME, new ApiKeySecret("crk_abc"), NOW);
        assertEquals(new Caller(ACME, key.id()), key.asCaller());
    }

    @Test
    void rejectsNullFields() {
        UUID id = UUID.randomUUID();
        assertThrows(NullPointerException.class, () -> new ApiKey(null, ACME, "h", NOW));
        assertThrows(NullPointerException.class, () -> new ApiKey(id, null, "h", NOW));
        assertThrows(NullPointerException.class, () -> new ApiKey(id, ACME, null, NOW));
        assertThrows(NullPointerException.class, () -> new ApiKey(id, ACME, "h", null));
    }
}
