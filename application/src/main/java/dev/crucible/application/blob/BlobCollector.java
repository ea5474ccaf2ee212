package dev.crucible.application.blob;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The garbage rule: an object is deleted once no manifest names it and it was last committed more than
 * {@code grace} ago. Writers put objects, then the manifest, then the database row; deleters remove the row, then the
 * manifest, then call {@link #collect()}. The grace covers a writer between its objects and its manifest (a put of
 * bytes already stored commits them again, so an old object that a new manifest is about to name is young again), so
 * it must exceed the longest such write. A collection lists manifests before objects, so an object whose manifest is
 * written meanwhile is young when it is listed. Costs one read of every manifest and one listing of every object.
 *
 * <p>Thread-safe; collections may run concurrently in several processes (deleting a deleted object is fine).
 */
public record BlobCollector(BlobStore store, Duration grace, Clock clock) {

    public BlobCollector {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(clock, "clock");
        if (grace == null || grace.isNegative()) {
            throw new IllegalArgumentException("grace must be at least 0, got " + grace);
        }
    }

    /**
     * Deletes the objects that nothing names and that are older than the grace, and what abandoned uploads left.
     *
     * @return how many objects it deleted
     */
    public int collect() {
        Instant cutoff = clock.instant().minus(grace);
        Set<BlobDigest> named = new HashSet<>();
        for (ManifestName name : store.manifests("")) {
            store.manifest(name).ifPresent(m -> m.files().values().forEach(b -> named.add(b.digest())));
        }
        List<BlobDigest> garbage = new ArrayList<>();
        store.forEachBlob(info -> {
            if (!named.contains(info.blob().digest()) && info.modified().isBefore(cutoff)) {
                garbage.add(info.blob().digest());
            }
        });
        garbage.forEach(store::delete);
        store.removeAbandoned(cutoff);
        return garbage.size();
    }
}
