package dev.crucible.domain.tenancy;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * An API key as the caller holds it. Shown once at creation; only {@link #hash()} is ever stored.
 * {@link #toString()} never prints the secret.
 */
public record ApiKeySecret(String value) {

    public static final String PREFIX = "crk_";
    private static final int RANDOM_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    public ApiKeySecret {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("api key must not be blank");
        }
    }

    /** A new key of 256 random bits. */
    public static ApiKeySecret generate() {
        byte[] bytes = new byte[RANDOM_BYTES];
        RANDOM.nextBytes(bytes);
        return new ApiKeySecret(PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
    }

    /** SHA-256 of the key, hex: enough for a 256-bit random secret, and what the store looks up by. */
    public String hash() {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    @Override
    public String toString() {
        return "ApiKeySecret[***]";
    }
}
