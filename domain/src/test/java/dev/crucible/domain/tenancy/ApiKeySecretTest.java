package dev.crucible.domain.tenancy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ApiKeySecretTest {

    @Test
    void hashIsSha256Hex() {
        // FIPS 180-2 test vector for "abc".
        assertEquals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
                new ApiKeySecret("abc").hash());
    }

    @Test
    void hashIsStableAndDiffersPerSecret() {
        assertEquals(new ApiKeySecret("k1").hash(), new ApiKeySecret("k1").hash());
        assertNotEquals(new ApiKeySecret("k1").hash(), new ApiKeySecret("k2").hash());
    }

    @Test
    void generatedKeysArePrefixedUrlSafeAndCarry256Bits() {
        String value = ApiKeySecret.generate().value();
        assertTrue(value.startsWith("crk_"), value);
        // 32 bytes in unpadded base64url are 43 characters.
        assertEquals(4 + 43, value.length(), value);
        assertTrue(value.substring(4).matches("[A-Za-z0-9_-]{43}"), value);
    }

    @Test
    void generatedKeysAreRandom() {
        assertNotEquals(ApiKeySecret.generate(), ApiKeySecret.generate());
    }

    @Test
    void toStringHidesTheSecret() {
        ApiKeySecret secret = new ApiKeySecret("crk_supersecret");
        assertEquals("ApiKeySecret[***]", secret.toString());
        assertFalse(secret.toString().contains("supersecret"));
    }

    @Test
    void rejectsBlankOrNullSecrets() {
        assertThrows(IllegalArgumentException.class, () -> new ApiKeySecret(null));
        assertThrows(IllegalArgumentException.class, () -> new ApiKeySecret(""));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ApiKeySecret("  "));
        assertEquals("api key must not be blank", e.getMessage());
    }
}
