package dev.crucible.adapters.persistence.file;

import dev.crucible.application.file.FileContents;
import dev.crucible.domain.file.FileId;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * File bytes under {@code <data-dir>/files/<file-id>}. An upload is written to a temporary file in
 * {@code files/.partial/} and moved into place atomically once complete, so a half upload is never visible; a
 * failed or oversized upload leaves nothing behind. A process killed mid-upload does leave its temporary file; those
 * older than a day are removed when the store starts (younger ones may belong to another server sharing the
 * directory, still uploading).
 */
@Singleton
class DiskFileContents implements FileContents {

    private static final int CHUNK = 64 * 1024;

    private final Path root;
    private final Path partial;

    static final Duration STALE_PARTIAL = Duration.ofDays(1);

    DiskFileContents(@Value("${crucible.data-dir}") Path dataDir) {
        this.root = dataDir.resolve("files");
        this.partial = root.resolve(".partial");
        removeStalePartials(Instant.now().minus(STALE_PARTIAL));
    }

    /** Deletes temporary upload files last written before {@code cutoff}; a file that cannot be deleted stays. */
    void removeStalePartials(Instant cutoff) {
        if (!Files.isDirectory(partial)) {
            return;
        }
        try (Stream<Path> files = Files.list(partial)) {
            for (Path file : files.toList()) {
                try {
                    if (Files.getLastModifiedTime(file).toInstant().isBefore(cutoff)) {
                        Files.deleteIfExists(file);
                    }
                } catch (IOException e) {
                    // Another process removed or is moving it; either way it is not ours to clean.
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + partial, e);
        }
    }

    @Override
    public OptionalLong write(FileId id, InputStream content, long maxBytes) {
        Path temp = null;
        try {
            Files.createDirectories(partial);
            temp = Files.createTempFile(partial, id + "-", ".part");
            long written = 0;
            try (OutputStream out = Files.newOutputStream(temp)) {
                byte[] buffer = new byte[CHUNK];
                for (int n = content.read(buffer); n >= 0; n = content.read(buffer)) {
                    written += n;
                    if (written > maxBytes) {
                        return OptionalLong.empty();
                    }
                    out.write(buffer, 0, n);
                }
            }
            Files.move(temp, blob(id), StandardCopyOption.ATOMIC_MOVE);
            temp = null;
            return OptionalLong.of(written);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot store file " + id, e);
        } finally {
            deleteQuietly(temp);
        }
    }

    @Override
    public InputStream open(FileId id) {
        try {
            return Files.newInputStream(blob(id));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read file " + id, e);
        }
    }

    @Override
    public void delete(FileId id) {
        try {
            Files.deleteIfExists(blob(id));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete file " + id, e);
        }
    }

    private Path blob(FileId id) {
        return root.resolve(id.toString());
    }

    private static void deleteQuietly(Path temp) {
        if (temp == null) {
            return;
        }
        try {
            Files.deleteIfExists(temp);
        } catch (IOException e) {
            // The temporary file is in .partial, never listed; a leftover costs disk space only.
        }
    }
}
