package dev.crucible.application.blob;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/** An in-memory blob store: the application tests' fake, held to the same contract as the real stores. */
final class MemoryBlobStore implements BlobStore {

    private record Entry(byte[] bytes, Instant modified) {
    }

    private final Map<BlobDigest, Entry> objects = new ConcurrentHashMap<>();
    private final Map<ManifestName, BlobManifest> manifests = new ConcurrentHashMap<>();

    @Override
    public Optional<StoredBlob> put(InputStream content, long maxBytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            Optional<StoredBlob> blob = HashingCopy.copy(content, out, maxBytes);
            blob.ifPresent(b -> objects.put(b.digest(), new Entry(out.toByteArray(), Instant.now())));
            return blob;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public Optional<InputStream> open(BlobDigest digest) {
        return Optional.ofNullable(objects.get(digest)).map(e -> new ByteArrayInputStream(e.bytes()));
    }

    @Override
    public void delete(BlobDigest digest) {
        objects.remove(digest);
    }

    @Override
    public void forEachBlob(Consumer<BlobInfo> action) {
        objects.forEach((d, e) -> action.accept(new BlobInfo(new StoredBlob(d, e.bytes().length), e.modified())));
    }

    @Override
    public void removeAbandoned(Instant cutoff) {
        // nothing is ever half-written here
    }

    @Override
    public void putManifest(ManifestName name, BlobManifest manifest) {
        manifests.put(name, manifest);
    }

    @Override
    public Optional<BlobManifest> manifest(ManifestName name) {
        return Optional.ofNullable(manifests.get(name));
    }

    @Override
    public void deleteManifest(ManifestName name) {
        manifests.remove(name);
    }

    @Override
    public List<ManifestName> manifests(String prefix) {
        return manifests.keySet().stream().filter(n -> n.startsWith(prefix)).toList();
    }
}
