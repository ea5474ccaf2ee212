package dev.crucible.application.blob;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Where everything that several Crucible processes share lives, apart from PostgreSQL: immutable objects named by
 * their SHA-256 ({@link #put}), and small named manifests that list the objects of one thing and are written after
 * them ({@link #putManifest}), so that a thing is complete or absent. Objects are never changed; the same bytes put
 * twice are one object. The local filesystem is the embedded default; S3 (or an S3-compatible server) serves a
 * cluster.
 *
 * <p>The garbage rule ({@link BlobCollector}): a write puts its objects, then its manifest, then its database row; a
 * delete removes the row, then the manifest; objects that no manifest names and that were last committed before a
 * grace period are then deleted. {@link #put} therefore commits an object again (fresh {@link BlobInfo#modified()})
 * even when its bytes were stored already.
 *
 * <p>Thread-safe, also across processes sharing the same storage. Streams are read and written in bounded chunks,
 * never held whole. Infrastructure failures surface as {@link UncheckedIOException} (or the client's own unchecked
 * exceptions); nothing here is a refusal a caller can cause.
 */
public interface BlobStore {

    /**
     * Reads {@code content} to its end (the caller closes it), hashing as it goes, and commits the bytes under their
     * digest; a reader sees the object whole or not at all.
     *
     * @return the object, or empty when {@code content} held more than {@code maxBytes} (then nothing is kept)
     */
    Optional<StoredBlob> put(InputStream content, long maxBytes);

    /** Opens object {@code digest} for reading (the caller closes the stream); empty when there is no such object. */
    Optional<InputStream> open(BlobDigest digest);

    /**
     * Writes object {@code digest} to the file {@code target} (whose folder exists; an existing file is replaced).
     * The file must then only be read: a store may link it to the object's own file.
     *
     * @throws UncheckedIOException when there is no such object or it cannot be written
     */
    default void copyTo(BlobDigest digest, Path target) {
        try (InputStream in = open(digest).orElseThrow(() -> new NoSuchFileException(digest.toString()))) {
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy object " + digest + " to " + target, e);
        }
    }

    /** Deletes object {@code digest}; a missing object is fine. Only {@link BlobCollector} calls this. */
    void delete(BlobDigest digest);

    /** Calls {@code action} with every object, in no particular order; one that appears meanwhile may be missed. */
    void forEachBlob(Consumer<BlobInfo> action);

    /** Removes what uploads that began before {@code cutoff} left behind without committing (a crashed process's). */
    void removeAbandoned(Instant cutoff);

    /**
     * Writes (or replaces) manifest {@code name}, in one step: a reader sees the old manifest, or the new one, or
     * none, never part of one. The caller has put every object it names.
     */
    void putManifest(ManifestName name, BlobManifest manifest);

    /** Manifest {@code name}; empty when none is written. */
    Optional<BlobManifest> manifest(ManifestName name);

    /** Deletes manifest {@code name} (its objects stay until collected); a missing one is fine. */
    void deleteManifest(ManifestName name);

    /** The names of every manifest whose name starts with {@code prefix} ({@code ""} for all), in no order. */
    List<ManifestName> manifests(String prefix);
}
