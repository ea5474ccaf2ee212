package dev.crucible.application.job;

import dev.crucible.application.dataset.DatasetLookup;
import dev.crucible.application.file.FileLookup;
import dev.crucible.application.file.FileStore;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.dataset.DatasetId;
import dev.crucible.domain.dataset.DatasetKind;
import dev.crucible.domain.file.FileId;
import dev.crucible.domain.file.FilePurpose;
import dev.crucible.domain.tenancy.EntityName;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Which dataset locations an SFT job may read: the ids of files the caller's entity uploaded with purpose
 * {@code fine-tune} (as OpenAI's {@code training_file} takes them), the ids of its {@code sft} datasets
 * ({@code dataset-...}), {@code http(s)://} URLs, and {@code file://}
 * paths only inside an import directory that the operator named, which lies outside the data directory (where other
 * tenants' uploads and the database live). Refusals never print a server path nor tell whether a path exists.
 */
public final class TrainingDataPolicy {

    static final String PARAM = "training_data_url";
    static final String NO_FILE_URLS = "training_data_url: this server takes no file:// URLs; upload the dataset "
            + "(POST /v1/files with purpose fine-tune) and pass its file id, or pass an http(s) URL";
    static final String NOT_IN_IMPORTS = "training_data_url names no readable regular file in the server's import "
            + "directory (crucible.training-data.import-directory)";
    private final Optional<Path> importDirectory;
    private final FileStore files;
    private final DatasetLookup datasets;

    /** A policy that knows no datasets. */
    public TrainingDataPolicy(Optional<Path> importDirectory, Path dataDirectory, FileStore files) {
        this(importDirectory, dataDirectory, files, DatasetLookup.NONE);
    }

    /**
     * @param importDirectory where {@code file://} datasets may be read from; empty (the default) refuses them all
     * @param dataDirectory the server's data directory, which the import directory must neither be in nor contain
     * @throws IllegalArgumentException when the import directory overlaps the data directory
     */
    public TrainingDataPolicy(Optional<Path> importDirectory, Path dataDirectory, FileStore files,
            DatasetLookup datasets) {
        Path data = Objects.requireNonNull(dataDirectory, "dataDirectory").toAbsolutePath().normalize();
        this.importDirectory = Objects.requireNonNull(importDirectory, "importDirectory")
                .map(dir -> dir.toAbsolutePath().normalize());
        this.importDirectory.ifPresent(dir -> {
            if (dir.startsWith(data) || data.startsWith(dir)) {
                throw new IllegalArgumentException("crucible.training-data.import-directory must lie outside the data "
                        + "directory, which holds every tenant's uploads and the database");
            }
        });
        this.files = Objects.requireNonNull(files, "files");
        this.datasets = Objects.requireNonNull(datasets, "datasets");
    }

    /** Checks {@code url} for {@code entity}, returning it normalised or a refusal naming {@code training_data_url}. */
    public Outcome<String> check(EntityName entity, String url) {
        return resolve(entity, url).map(TrainingDataLocation::url);
    }

    /**
     * Where {@code url} points for {@code entity}, or a refusal naming {@code training_data_url}: INVALID for a
     * location the policy does not allow, NOT_FOUND for a file id that is not one of {@code entity}'s files.
     */
    public Outcome<TrainingDataLocation> resolve(EntityName entity, String url) {
        if (FileId.looksLikeOne(url)) {
            return uploaded(entity, url);
        }
        if (DatasetId.looksLikeOne(url)) {
            return dataset(entity, url);
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            return refuse("training_data_url is not a valid URL: " + e.getMessage());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        return switch (scheme) {
            case "http", "https" -> uri.getHost() == null ? refuse("training_data_url has no host: " + url)
                    : Outcome.done(new TrainingDataLocation.Web(uri));
            case "file" -> importDirectory.map(dir -> checkFile(dir, uri)).orElseGet(() -> refuse(NO_FILE_URLS));
            default -> refuse("training_data_url must be the id of an uploaded file (file-...), a dataset (dataset-...) or an http(s) URL");
        };
    }

    private Outcome<TrainingDataLocation> uploaded(EntityName entity, String id) {
        return FileLookup.ownedBy(files, entity, id, PARAM).then(file -> file.purpose() == FilePurpose.FINE_TUNE
                ? Outcome.done(new TrainingDataLocation.Uploaded(file))
                : refuse("training_data_url " + id + " was uploaded with purpose '" + file.purpose().wireName()
                        + "'; training data must be uploaded with purpose 'fine-tune'"));
    }

    private Outcome<TrainingDataLocation> dataset(EntityName entity, String id) {
        return DatasetId.parse(id).flatMap(parsed -> datasets.content(entity, parsed))
                .<Outcome<TrainingDataLocation>>map(content -> content.dataset().kind() == DatasetKind.SFT
                        ? Outcome.done(new TrainingDataLocation.Snapshot(content))
                        : refuse("training_data_url " + id + " is a " + content.dataset().kind().wireName()
                                + " dataset; an SFT job trains on an sft dataset"))
                .orElseGet(() -> Outcome.refused(Refusal.notFound(PARAM, "No dataset found with id '"
                        + (id.length() > 64 ? id.substring(0, 64) + "…" : id) + "'")));
    }

    /** Inside {@code dir} after normalising and after following every link, a regular file; else one message. */
    private Outcome<TrainingDataLocation> checkFile(Path dir, URI uri) {
        if (uri.getPath() == null) {
            return refuse(NOT_IN_IMPORTS);
        }
        Path path = Path.of(uri.getPath()).toAbsolutePath().normalize();
        try {
            if (path.startsWith(dir) && Files.isRegularFile(path) && path.toRealPath().startsWith(dir.toRealPath())) {
                return Outcome.done(new TrainingDataLocation.LocalFile(path));
            }
        } catch (IOException e) {
            return refuse(NOT_IN_IMPORTS);
        }
        return refuse(NOT_IN_IMPORTS);
    }

    private static <T> Outcome<T> refuse(String message) {
        return Outcome.refused(Refusal.invalid(PARAM, message));
    }
}
