package dev.crucible.application.blob;

import dev.crucible.application.model.AdapterFiles;
import dev.crucible.domain.model.ModelId;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Adapters in the blob store: checkpoint {@code step} of a model is manifest {@code adapters/<model-id>/step-<N>},
 * naming every file its trainer wrote (the PEFT adapter, and the optimiser state when a run saved it). Served from
 * this server's {@link AdapterCache}; a step just written is cached as it was written, so no server downloads its own
 * checkpoint. The manifests read are remembered (at most {@value #MANIFESTS}, least recently used dropped), so a chat
 * request on a trained model costs no read of the store once its step was served here; {@link #forget} drops them
 * when the catalog says a checkpoint or model is gone (a step number can be written again after its deletion).
 * Deleting removes manifests, then asks for a sweep of the objects nothing names any more.
 */
public final class BlobAdapterFiles implements AdapterFiles {

    /** The file every PEFT adapter folder has; a manifest without it is not an adapter. */
    static final String CONFIG = "adapter_config.json";
    static final int MANIFESTS = 4096;

    private final BlobStore store;
    private final AdapterCache cache;
    private final BlobSweeps sweeps;
    private final Map<ManifestName, BlobManifest> manifests = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<ManifestName, BlobManifest> eldest) {
            return size() > MANIFESTS;
        }
    };

    public BlobAdapterFiles(BlobStore store, AdapterCache cache, BlobSweeps sweeps) {
        this.store = Objects.requireNonNull(store, "store");
        this.cache = Objects.requireNonNull(cache, "cache");
        this.sweeps = Objects.requireNonNull(sweeps, "sweeps");
    }

    @Override
    public void deleteModel(ModelId model) {
        store.manifests(prefix(model)).forEach(store::deleteManifest);
        forget(model, OptionalInt.empty());
        sweeps.request();
    }

    @Override
    public Optional<Path> stepFolder(ModelId model, int step) {
        ManifestName name = name(model, step);
        BlobManifest manifest;
        synchronized (manifests) {
            manifest = manifests.get(name);
        }
        if (manifest == null) {
            Optional<BlobManifest> read = store.manifest(name).filter(m -> m.files().containsKey(CONFIG));
            if (read.isEmpty()) {
                return Optional.empty();
            }
            manifest = read.get();
            synchronized (manifests) {
                manifests.put(name, manifest);
            }
        }
        return Optional.of(cache.folder(manifest, store));
    }

    /** Drops the remembered manifests of {@code step} of {@code model}, or of all its steps when none is given. */
    public void forget(ModelId model, OptionalInt step) {
        synchronized (manifests) {
            if (step.isPresent()) {
                manifests.remove(name(model, step.getAsInt()));
            } else {
                manifests.keySet().removeIf(n -> n.value().startsWith(prefix(model)));
            }
        }
    }

    @Override
    public void writeStep(ModelId model, int step, Consumer<Path> writer) {
        Path staging = cache.staging();
        try {
            writer.accept(staging);
            BlobManifest manifest = BlobManifest.of(putAll(staging));
            store.putManifest(name(model, step), manifest);
            cache.adopt(staging, manifest);
        } finally {
            AdapterCache.deleteTree(staging);
        }
    }

    @Override
    public void deleteStep(ModelId model, int step) {
        store.deleteManifest(name(model, step));
        forget(model, OptionalInt.of(step));
        sweeps.request();
    }

    private Map<String, StoredBlob> putAll(Path folder) {
        Map<String, StoredBlob> files = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(folder)) {
            for (Path file : paths.filter(Files::isRegularFile).toList()) {
                try (InputStream in = Files.newInputStream(file)) {
                    StoredBlob blob = store.put(in, Long.MAX_VALUE).orElseThrow();
                    files.put(folder.relativize(file).toString().replace(file.getFileSystem().getSeparator(), "/"),
                            blob);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot store the adapter files in " + folder, e);
        }
        if (files.isEmpty()) {
            throw new IllegalStateException("the trainer wrote no adapter files into " + folder);
        }
        return files;
    }

    private static String prefix(ModelId model) {
        return "adapters/" + model.value() + "/";
    }

    private static ManifestName name(ModelId model, int step) {
        return new ManifestName(prefix(model) + "step-" + step);
    }
}
