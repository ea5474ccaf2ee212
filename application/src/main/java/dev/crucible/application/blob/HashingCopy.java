package dev.crucible.application.blob;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Optional;

/** The one loop that every store's {@link BlobStore#put} runs: copy in chunks, hash and count on the way. */
public final class HashingCopy {

    /** The chunk read at a time; the only part of an upload in memory here. */
    public static final int CHUNK = 64 * 1024;

    private HashingCopy() {
    }

    /**
     * Copies {@code in} to its end into {@code out} (neither is closed), stopping as soon as more than
     * {@code maxBytes} came.
     *
     * @return the bytes' digest and length, or empty when there were more than {@code maxBytes} (what was written to
     *         {@code out} is then the caller's to discard)
     */
    public static Optional<StoredBlob> copy(InputStream in, OutputStream out, long maxBytes) throws IOException {
        MessageDigest sha256;
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
        byte[] buffer = new byte[CHUNK];
        long size = 0;
        for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
            size += n;
            if (size > maxBytes) {
                return Optional.empty();
            }
            sha256.update(buffer, 0, n);
            out.write(buffer, 0, n);
        }
        return Optional.of(new StoredBlob(BlobDigest.of(sha256.digest()), size));
    }
}
