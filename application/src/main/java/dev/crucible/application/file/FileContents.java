package dev.crucible.application.file;

import dev.crucible.domain.file.FileId;
import java.io.InputStream;
import java.util.OptionalLong;

/**
 * The bytes of uploaded files, one blob per file id (in the blob store, {@code application.blob.BlobFileContents}). A
 * blob appears whole or not at all: it is written aside and made visible only once complete.
 *
 * <p>Thread-safe. I/O failures are infrastructure failures and surface as {@link java.io.UncheckedIOException}.
 */
public interface FileContents {

    /**
     * Reads {@code content} to its end (the caller closes it) into the blob of {@code id}.
     *
     * @return the number of bytes stored, or empty when {@code content} held more than {@code maxBytes} (then
     *         nothing is kept)
     */
    OptionalLong write(FileId id, InputStream content, long maxBytes);

    /** Opens the blob of {@code id} for reading; the caller closes the stream. */
    InputStream open(FileId id);

    /** Removes the blob of {@code id}; a missing blob is fine. */
    void delete(FileId id);
}
