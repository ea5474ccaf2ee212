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
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
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
    public void writeStep(ModelId model, int step, Consumer<Path> writer) {
        Path target = stepPath(model, step);
        Path staging = target.resolveSibling("." + target.getFileName() + "-" + UUID.randomUUID());
        try {
            Files.createDirectories(staging);
            writer.accept(staging);
            // A leftover folder of this step (a job that failed after writing) is replaced.
            deleteTree(target);
            Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot store the adapter of step " + step + " in " + target, e);
        } finally {
            deleteTree(staging);
        }
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
