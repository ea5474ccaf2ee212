package dev.crucible.application.blob;

import dev.crucible.application.file.FileContents;
import dev.crucible.domain.file.FileId;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Uploaded files in the blob store: file {@code id} is manifest {@code files/<id>}, naming one object,
 * {@value #CONTENT}. Equal uploads are one object. Deleting removes the manifest, then asks for a sweep of the objects
 * nothing names any more.
 */
public record BlobFileContents(BlobStore store, BlobSweeps sweeps) implements FileContents {

    static final String CONTENT = "content";

    @Override
    public OptionalLong write(FileId id, InputStream content, long maxBytes) {
        return store.put(content, maxBytes).map(blob -> {
            store.putManifest(name(id), BlobManifest.of(Map.of(CONTENT, blob)));
            return OptionalLong.of(blob.size());
        }).orElse(OptionalLong.empty());
    }

    @Override
    public InputStream open(FileId id) {
        return store.manifest(name(id)).map(m -> m.files().get(CONTENT)).flatMap(b -> store.open(b.digest()))
                .orElseThrow(() -> new UncheckedIOException(new NoSuchFileException("file " + id)));
    }

    @Override
    public void delete(FileId id) {
        store.deleteManifest(name(id));
        sweeps.request();
    }

    private static ManifestName name(FileId id) {
        return new ManifestName("files/" + id);
    }
}
