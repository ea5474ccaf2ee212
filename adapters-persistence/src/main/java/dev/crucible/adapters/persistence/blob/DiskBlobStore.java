package dev.crucible.adapters.persistence.blob;

import dev.crucible.application.blob.BlobDigest;
import dev.crucible.application.blob.BlobInfo;
import dev.crucible.application.blob.BlobManifest;
import dev.crucible.application.blob.BlobStore;
import dev.crucible.application.blob.HashingCopy;
import dev.crucible.application.blob.ManifestName;
import dev.crucible.application.blob.StoredBlob;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The blob store in {@code <data-dir>/blobs/}: object {@code d} is the read-only file {@code objects/<d[0:2]>/<d>},
 * manifest {@code n} is {@code manifests/<n>.manifest}. Both are written to a temporary file in {@code .partial/} and
 * renamed into place, so a reader sees them whole or not at all; a rename over an existing object commits it again
 * (fresh modification time). Objects are copied to a cache by hard link when the cache is on the same file system.
 * Several processes may share the folder (a shared volume) as long as its file system renames atomically.
 */
@Singleton
@Requires(property = DiskBlobStore.SETTING, value = "local", defaultValue = "local")
class DiskBlobStore implements BlobStore {

    /** {@code local}, or an {@code s3://} address served by another store. */
    static final String SETTING = "crucible.blob.store";

    private static final String SUFFIX = ".manifest";

    private final Path objects;
    private final Path manifests;
    private final Path partial;

    DiskBlobStore(@Value("${crucible.data-dir}") Path dataDir) {
        Path root = dataDir.toAbsolutePath().normalize().resolve("blobs");
        this.objects = root.resolve("objects");
        this.manifests = root.resolve("manifests");
        this.partial = root.resolve(".partial");
    }

    @Override
    public Optional<StoredBlob> put(InputStream content, long maxBytes) {
        AtomicReference<Optional<StoredBlob>> blob = new AtomicReference<>(Optional.empty());
        writeAside("an object in " + objects, temp -> {
            try (OutputStream out = Files.newOutputStream(temp)) {
                blob.set(HashingCopy.copy(content, out, maxBytes));
            }
            temp.toFile().setReadOnly();
            return blob.get().map(b -> object(b.digest()));
        });
        return blob.get();
    }

    @Override
    public Optional<InputStream> open(BlobDigest digest) {
        try {
            return Optional.of(Files.newInputStream(object(digest)));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read object " + digest, e);
        }
    }

    @Override
    public void copyTo(BlobDigest digest, Path target) {
        Path source = object(digest);
        try {
            Files.deleteIfExists(target);
            try {
                Files.createLink(target, source);
            } catch (NoSuchFileException e) {
                throw e;
            } catch (FileSystemException | UnsupportedOperationException e) {
                // another file system, or one without hard links: copy instead
                Files.copy(source, target);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy object " + digest + " to " + target, e);
        }
    }

    @Override
    public void delete(BlobDigest digest) {
        deleteIfExists(object(digest), "object " + digest);
    }

    @Override
    public void forEachBlob(Consumer<BlobInfo> action) {
        for (Path file : files(objects)) {
            String name = file.getFileName().toString();
            if (!BlobDigest.isValid(name)) {
                continue;
            }
            try {
                action.accept(new BlobInfo(new StoredBlob(new BlobDigest(name), Files.size(file)),
                        Files.getLastModifiedTime(file).toInstant()));
            } catch (NoSuchFileException e) {
                // collected meanwhile by another process
            } catch (IOException e) {
                throw new UncheckedIOException("cannot list object " + file, e);
            }
        }
    }

    @Override
    public void removeAbandoned(Instant cutoff) {
        for (Path file : files(partial)) {
            try {
                if (Files.getLastModifiedTime(file).toInstant().isBefore(cutoff)) {
                    Files.deleteIfExists(file);
                }
            } catch (IOException e) {
                // another process removed or is renaming it; either way it is not ours to clean
            }
        }
    }

    @Override
    public void putManifest(ManifestName name, BlobManifest manifest) {
        writeAside("manifest " + name, temp -> {
            Files.writeString(temp, manifest.text(), StandardCharsets.UTF_8);
            return Optional.of(manifestFile(name));
        });
    }

    @Override
    public Optional<BlobManifest> manifest(ManifestName name) {
        try {
            return Optional.of(BlobManifest.parse(Files.readString(manifestFile(name), StandardCharsets.UTF_8)));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read manifest " + name, e);
        }
    }

    @Override
    public void deleteManifest(ManifestName name) {
        deleteIfExists(manifestFile(name), "manifest " + name);
    }

    @Override
    public List<ManifestName> manifests(String prefix) {
        List<ManifestName> names = new ArrayList<>();
        for (Path file : files(manifests)) {
            String path = manifests.relativize(file).toString().replace(file.getFileSystem().getSeparator(), "/");
            if (path.endsWith(SUFFIX)) {
                String name = path.substring(0, path.length() - SUFFIX.length());
                if (name.startsWith(prefix) && ManifestName.isValid(name)) {
                    names.add(new ManifestName(name));
                }
            }
        }
        return names;
    }

    private Path object(BlobDigest digest) {
        return objects.resolve(digest.hex().substring(0, 2)).resolve(digest.hex());
    }

    private Path manifestFile(ManifestName name) {
        return manifests.resolve(name.value() + SUFFIX);
    }

    /** Fills a temporary file; answers where it goes, or empty to drop it. */
    private interface Fill {
        Optional<Path> into(Path temp) throws IOException;
    }

    /** Writes a file aside in {@code .partial/} and renames it into place whole (over what was there), or drops it. */
    private void writeAside(String what, Fill fill) {
        Path temp = null;
        try {
            Files.createDirectories(partial);
            temp = Files.createTempFile(partial, "put-", ".part");
            Optional<Path> target = fill.into(temp);
            if (target.isPresent()) {
                Files.createDirectories(target.get().getParent());
                Files.move(temp, target.get(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                temp = null;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + what, e);
        } finally {
            deleteQuietly(temp);
        }
    }

    /** The regular files under {@code root}; none when it does not exist. */
    private static List<Path> files(Path root) {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> paths = Files.walk(root)) {
            return paths.filter(Files::isRegularFile).toList();
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException | UncheckedIOException e) {
            throw new UncheckedIOException("cannot list " + root, e instanceof IOException io ? io
                    : ((UncheckedIOException) e).getCause());
        }
    }

    /** Deletes {@code file} when it is there; {@code what} names it in the failure. */
    private static void deleteIfExists(Path file, String what) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + what, e);
        }
    }

    private static void deleteQuietly(Path temp) {
        if (temp == null) {
            return;
        }
        try {
            Files.deleteIfExists(temp);
        } catch (IOException e) {
            // a leftover in .partial is never listed; removeAbandoned removes it later
        }
    }
}
