package dev.crucible.application.blob;

import dev.crucible.application.model.AdapterFiles;
import dev.crucible.domain.model.ModelId;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Adapters in the blob store: checkpoint {@code step} of a model is manifest {@code adapters/<model-id>/step-<N>},
 * naming every file its trainer wrote (the PEFT adapter, and the optimiser state when a run saved it). Served from
 * this server's {@link AdapterCache}; a step just written is cached as it was written, so no server downloads its own
 * checkpoint. Deleting removes manifests, then collects the objects nothing names any more.
 */
public record BlobAdapterFiles(BlobStore store, AdapterCache cache, BlobCollector collector) implements AdapterFiles {

    /** The file every PEFT adapter folder has; a manifest without it is not an adapter. */
    static final String CONFIG = "adapter_config.json";

    @Override
    public void deleteModel(ModelId model) {
        store.manifests(prefix(model)).forEach(store::deleteManifest);
        collector.collect();
    }

    @Override
    public Optional<Path> stepFolder(ModelId model, int step) {
        return store.manifest(name(model, step)).filter(m -> m.files().containsKey(CONFIG))
                .map(m -> cache.folder(m, store));
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
        collector.collect();
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
