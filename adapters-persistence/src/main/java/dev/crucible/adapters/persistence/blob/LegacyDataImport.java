package dev.crucible.adapters.persistence.blob;

import dev.crucible.application.file.FileContents;
import dev.crucible.application.model.AdapterFiles;
import dev.crucible.domain.file.FileId;
import dev.crucible.domain.model.ModelId;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.annotation.Value;
import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.context.event.StartupEvent;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves what a data directory of the layout before the blob store holds into the configured blob store when the
 * context starts: uploaded files ({@code files/<file-id>}) and adapters ({@code adapters/<model-id>/step-<N>/}). Each
 * is written through the ports (objects, then its manifest) before its old copy is deleted, so a crash midway leaves
 * it in the old place to be imported again; importing twice stores the same objects. Rows in PostgreSQL name files and
 * checkpoints by id and step, which do not change. Only where the file and adapter ports are wired (the server; a
 * context of the stores alone has neither, and nothing to import).
 */
@Singleton
@Requires(beans = {FileContents.class, AdapterFiles.class})
class LegacyDataImport implements ApplicationEventListener<StartupEvent> {

    private static final Logger LOG = LoggerFactory.getLogger(LegacyDataImport.class);
    private static final Pattern STEP = Pattern.compile("step-(\\d{1,9})");

    private final Path dataDir;
    private final FileContents files;
    private final AdapterFiles adapters;

    LegacyDataImport(@Value("${crucible.data-dir}") Path dataDir, FileContents files, AdapterFiles adapters) {
        this.dataDir = dataDir.toAbsolutePath().normalize();
        this.files = files;
        this.adapters = adapters;
    }

    @Override
    public void onApplicationEvent(StartupEvent event) {
        int moved = importFiles() + importAdapters();
        if (moved > 0) {
            LOG.info("Moved {} files and adapters of the data directory's older layout into the blob store", moved);
        }
    }

    /** Imports {@code files/<file-id>}; answers how many. */
    int importFiles() {
        int moved = 0;
        for (Path file : list(dataDir.resolve("files"))) {
            Optional<FileId> id = FileId.parse(file.getFileName().toString());
            if (id.isEmpty() || !Files.isRegularFile(file)) {
                continue;
            }
            try (InputStream in = Files.newInputStream(file)) {
                files.write(id.get(), in, Long.MAX_VALUE);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot import " + file, e);
            }
            deleteTree(file);
            moved++;
        }
        return moved;
    }

    /** Imports {@code adapters/<model-id>/step-<N>/}; answers how many. */
    int importAdapters() {
        int moved = 0;
        for (Path model : list(dataDir.resolve("adapters"))) {
            Optional<ModelId> id = modelId(model.getFileName().toString());
            if (id.isEmpty()) {
                continue;
            }
            for (Path step : list(model)) {
                Matcher m = STEP.matcher(step.getFileName().toString());
                if (m.matches() && Files.isRegularFile(step.resolve("adapter_config.json"))) {
                    adapters.writeStep(id.get(), Integer.parseInt(m.group(1)), staging -> copyTree(step, staging));
                    deleteTree(step);
                    moved++;
                }
            }
        }
        return moved;
    }

    private static Optional<ModelId> modelId(String name) {
        try {
            return Optional.of(new ModelId(UUID.fromString(name)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static List<Path> list(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }

    private static void copyTree(Path from, Path to) {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path p : paths.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy " + from, e);
        }
    }

    private static void deleteTree(Path path) {
        try (Stream<Path> paths = Files.walk(path)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + path, e);
        }
    }
}
