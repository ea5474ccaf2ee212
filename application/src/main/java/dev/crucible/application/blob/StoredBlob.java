package dev.crucible.application.blob;

import java.util.Objects;

/**
 * An object in the store: its name and its length.
 *
 * @param digest the SHA-256 of its bytes
 * @param size its length in bytes, at least 0
 */
public record StoredBlob(BlobDigest digest, long size) {

    public StoredBlob {
        Objects.requireNonNull(digest, "digest");
        if (size < 0) {
            throw new IllegalArgumentException("size must be at least 0, got " + size);
        }
    }
}
