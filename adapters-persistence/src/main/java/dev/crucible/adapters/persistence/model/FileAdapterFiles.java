package dev.crucible.adapters.persistence.model;

import dev.crucible.application.model.AdapterFiles;
import dev.crucible.domain.model.ModelId;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/** Adapter files under {@code <data-dir>/adapters/<model-id>/step-<N>/} (PEFT layout inside each step). */
@Singleton
class FileAdapterFiles implements AdapterFiles {

    private final Path root;

    FileAdapterFiles(@Value("${crucible.data-dir}") Path dataDir) {
        this.root = dataDir.resolve("adapters");
    }

    @Override
    public void deleteModel(ModelId model) {
        deleteTree(root.resolve(model.value().toString()));
    }

    @Override
    public Optional<Path> stepFolder(ModelId model, int step) {
        Path folder = stepPath(model, step);
        return Files.isRegularFile(folder.resolve("adapter_config.json")) ? Optional.of(folder) : Optional.empty();
    }

    @Override
    public void deleteStep(ModelId model, int step) {
        deleteTree(stepPath(model, step));
    }

    private Path stepPath(ModelId model, int step) {
        return root.resolve(model.value().toString()).resolve("step-" + step);
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete adapter files in " + dir, e);
        }
    }
}
