package dev.crucible.application.blob;

import java.util.HexFormat;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The SHA-256 of an object's bytes, which is its name in the store.
 *
 * @param hex 64 lowercase hexadecimal digits
 */
public record BlobDigest(String hex) {

    private static final Pattern HEX = Pattern.compile("[0-9a-f]{64}");

    public BlobDigest {
        Objects.requireNonNull(hex, "hex");
        if (!HEX.matcher(hex).matches()) {
            throw new IllegalArgumentException("hex must be 64 lowercase hexadecimal digits, got '" + hex + "'");
        }
    }

    /** The digest whose bytes are {@code sha256} (32 bytes). */
    public static BlobDigest of(byte[] sha256) {
        if (sha256.length != 32) {
            throw new IllegalArgumentException("sha256 must have 32 bytes, got " + sha256.length);
        }
        return new BlobDigest(HexFormat.of().formatHex(sha256));
    }

    /** Whether {@code text} is a digest's hex form (an object key that is not one is not an object). */
    public static boolean isValid(String text) {
        return text != null && HEX.matcher(text).matches();
    }

    @Override
    public String toString() {
        return "sha256:" + hex;
    }
}
