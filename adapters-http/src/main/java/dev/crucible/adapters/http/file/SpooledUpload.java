package dev.crucible.adapters.http.file;

import dev.crucible.adapters.http.idempotency.RequestFingerprint;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.util.function.Function;

/**
 * An uploaded file copied to a private temporary file while its SHA-256 is computed, for an upload that must be
 * fingerprinted before it is stored (a part's stream can be read only once). The copy is deleted on close.
 */
final class SpooledUpload implements AutoCloseable {

    private final Path file;
    private final String sha256;

    private SpooledUpload(Path file, String sha256) {
        this.file = file;
        this.sha256 = sha256;
    }

    static SpooledUpload of(InputStream content) throws IOException {
        Path file = Files.createTempFile("crucible-upload-", ".part");
        try {
            MessageDigest digest = RequestFingerprint.sha256();
            try (OutputStream out = new DigestOutputStream(Files.newOutputStream(file), digest)) {
                content.transferTo(out);
            }
            return new SpooledUpload(file, RequestFingerprint.hex(digest));
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(file);
            throw e;
        }
    }

    String sha256() {
        return sha256;
    }

    /** What {@code reader} makes of the copied content, read from its start (the stream is closed after). */
    <T> T read(Function<InputStream, T> reader) {
        try (InputStream content = Files.newInputStream(file)) {
            return reader.apply(content);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot reopen the spooled upload", e);
        }
    }

    @Override
    public void close() throws IOException {
        Files.deleteIfExists(file);
    }
}
