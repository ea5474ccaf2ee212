package dev.crucible.domain.object;

import dev.crucible.kernel.python.PythonJson;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * Weave's content digest ({@code bytes_digest}): SHA-256, URL-safe base64 without padding, then {@code -} becomes
 * {@code X} and {@code _} becomes {@code Y}. The result is 43 characters from {@code [A-Za-z0-9]}.
 */
public final class ObjectDigest {

    /**
     * The text an object's digest hashes: Python's {@code json.dumps(val, sort_keys=True)}, as Weave's
     * {@code compute_object_digest} hashes it. Plain ASCII.
     */
    public static final PythonJson CANONICAL = PythonJson.DEFAULT.sortKeys(true);

    private ObjectDigest() {
    }

    /** The digest of an object's value: {@link #ofText} of its {@link #CANONICAL} text. */
    public static String of(Object val) {
        return ofText(CANONICAL.dumps(val));
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
