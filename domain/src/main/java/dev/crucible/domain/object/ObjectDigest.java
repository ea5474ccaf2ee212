package dev.crucible.domain.object;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * Weave's content digest ({@code bytes_digest}): SHA-256, URL-safe base64 without padding, then {@code -} becomes
 * {@code X} and {@code _} becomes {@code Y}. The result is 43 characters from {@code [A-Za-z0-9]}.
 */
public final class ObjectDigest {

    private ObjectDigest() {
    }

    /** The digest of an object's value: {@link #ofText} of its {@link CanonicalJson}. */
    public static String of(Object val) {
        return ofText(CanonicalJson.write(val));
    }

    /** The digest of {@code text} encoded as UTF-8 (Weave's {@code str_digest}). */
    public static String ofText(String text) {
        return ofBytes(text.getBytes(StandardCharsets.UTF_8));
    }

    /** Weave's {@code bytes_digest}. */
    public static String ofBytes(byte[] bytes) {
        byte[] hash;
        try {
            hash = MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(hash).replace('-', 'X').replace('_', 'Y');
    }
}
