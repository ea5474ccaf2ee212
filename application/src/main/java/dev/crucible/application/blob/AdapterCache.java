package dev.crucible.application.blob;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * This server's local copies of manifests' folders (engines load a PEFT adapter from a folder), one folder per
 * manifest named by the manifest's digest, so a folder never goes stale: a different adapter is a different folder.
 * At most {@code maxBytes} of them are kept, least recently used evicted first, except the folder just handed out and
 * any handed out (by this process or another sharing the folder) within {@code inUse}, so the bound is soft while many
 * adapters are loaded at once. A folder appears whole: it is filled aside, then moved into place. Folders left from an
 * earlier run are kept (oldest-used first in line for eviction); staging folders a day old are a crash's, removed at
 * start.
 *
 * <p>Thread-safe; processes sharing a data directory may share the cache folder (each counts what it knows of). A
 * folder handed out may be evicted once {@code inUse} has passed, so callers load it at once (engines read an adapter
 * into memory when they load it).
 */
public final class AdapterCache {

    private static final String STAGING = ".staging-";
    private static final Duration STALE_STAGING = Duration.ofDays(1);

    private final Path root;
    private final long maxBytes;
    private final Duration inUse;
    private final LinkedHashMap<String, Long> sizes = new LinkedHashMap<>(16, 0.75f, true);
    private long total;

    /** A cache that evicts whatever is least recently used, however recently (one process, tests). */
    public AdapterCache(Path root, long maxBytes) {
        this(root, maxBytes, Duration.ZERO);
    }

    /**
     * @param root the cache's own folder (created if missing)
     * @param maxBytes the most bytes of folders kept, at least 0 (0 keeps only the folder last handed out)
     * @param inUse how long after it was handed out a folder is never evicted, at least 0
     */
    public AdapterCache(Path root, long maxBytes, Duration inUse) {
        this.root = Objects.requireNonNull(root, "root");
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes must be at least 0, got " + maxBytes);
        }
        if (inUse == null || inUse.isNegative()) {
            throw new IllegalArgumentException("inUse must be at least 0, got " + inUse);
        }
        this.maxBytes = maxBytes;
        this.inUse = inUse;
        try {
            Files.createDirectories(root);
            List<Path> found;
            try (Stream<Path> entries = Files.list(root)) {
                found = entries.toList();
            }
            Instant stale = Instant.now().minus(STALE_STAGING);
            found.stream().filter(p -> p.getFileName().toString().startsWith(STAGING))
                    .filter(p -> modified(p).isBefore(stale)).forEach(AdapterCache::deleteTree);
            found.stream().filter(p -> BlobDigest.isValid(p.getFileName().toString()))
                    .sorted(Comparator.comparing(AdapterCache::modified))
                    .forEach(p -> remember(p.getFileName().toString(), treeSize(p)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the adapter cache in " + root, e);
        }
    }

    /** The bytes of the folders kept now. */
    public synchronized long bytes() {
        return total;
    }

    /**
     * The folder of {@code manifest}, copying its objects from {@code store} unless it is cached.
     *
     * @throws UncheckedIOException when an object is missing or a file cannot be written
     */
    public Path folder(BlobManifest manifest, BlobStore store) {
        String key = manifest.digest().hex();
        Path folder = root.resolve(key);
        if (touch(key, folder)) {
            return folder;
        }
        Path staging = staging();
        for (Map.Entry<String, StoredBlob> file : manifest.files().entrySet()) {
            Path target = staging.resolve(file.getKey());
            try {
                Files.createDirectories(target.getParent());
            } catch (IOException e) {
                deleteTree(staging);
                throw new UncheckedIOException("cannot stage " + target, e);
            }
            try {
                store.copyTo(file.getValue().digest(), target);
            } catch (RuntimeException e) {
                deleteTree(staging);
                throw e;
            }
        }
        return adopt(staging, manifest);
    }

    /** An empty folder inside the cache, to fill and {@link #adopt} (or delete). */
    public Path staging() {
        Path staging = root.resolve(STAGING + UUID.randomUUID());
        try {
            return Files.createDirectories(staging);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + staging, e);
        }
    }

    /** Makes {@code staging}, which holds exactly {@code manifest}'s files, the cached folder of {@code manifest}. */
    public Path adopt(Path staging, BlobManifest manifest) {
        String key = manifest.digest().hex();
        Path folder = root.resolve(key);
        if (Files.isDirectory(folder)) {
            // the same files are cached already (equal adapters of two checkpoints are one folder)
            deleteTree(staging);
        } else {
            try {
                Files.move(staging, folder, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                deleteTree(staging);
                if (!Files.isDirectory(folder)) {
                    throw new UncheckedIOException("cannot cache " + folder, e);
                }
                // another thread cached the same manifest meanwhile; its folder has the same files
            }
        }
        synchronized (this) {
            if (!sizes.containsKey(key)) {
                remember(key, manifest.size());
            }
            sizes.get(key); // a get is a use: the folder just handed out is the most recent
            evictBeyond(key);
        }
        return folder;
    }

    private synchronized boolean touch(String key, Path folder) {
        if (!Files.isDirectory(folder)) {
            if (sizes.containsKey(key)) {
                // another process sharing the folder evicted it
                total -= sizes.remove(key);
            }
            return false;
        }
        if (!sizes.containsKey(key)) {
            // another process sharing the folder cached it
            remember(key, treeSize(folder));
        }
        sizes.get(key);
        try {
            Files.setLastModifiedTime(folder, FileTime.fromMillis(System.currentTimeMillis()));
        } catch (IOException e) {
            // only the order after a restart depends on it
        }
        return true;
    }

    private void remember(String key, long size) {
        sizes.put(key, size);
        total += size;
    }

    private void evictBeyond(String keep) {
        Instant recent = Instant.now().minus(inUse);
        var eldest = sizes.entrySet().iterator();
        while (total > maxBytes && eldest.hasNext()) {
            Map.Entry<String, Long> entry = eldest.next();
            if (entry.getKey().equals(keep) || (!inUse.isZero()
                    && !modified(root.resolve(entry.getKey())).isBefore(recent))) {
                continue;
            }
            total -= entry.getValue();
            eldest.remove();
            deleteTree(root.resolve(entry.getKey()));
        }
    }

    private static Instant modified(Path p) {
        try {
            return Files.getLastModifiedTime(p).toInstant();
        } catch (IOException e) {
            return Instant.EPOCH;
        }
    }

    /**
     * The bytes of the regular files in {@code dir} and below (a cached folder's size); a file that goes away while
     * counted counts 0.
     *
     * @throws UncheckedIOException when {@code dir} cannot be walked
     */
    public static long treeSize(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            return paths.filter(Files::isRegularFile).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    return 0;
                }
            }).sum();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot measure " + dir, e);
        }
    }

    /** Deletes {@code dir} and everything in it; a missing one is fine. */
    static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }
}
