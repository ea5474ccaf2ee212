package dev.crucible.application.job;

import dev.crucible.application.file.FileLookup;
import dev.crucible.application.file.FileStore;
import dev.crucible.domain.common.Outcome;
import dev.crucible.domain.common.Refusal;
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

/**
 * Which dataset locations an SFT job may read: {@code http(s)://} URLs, {@code file://} paths inside the
 * configured data directory (so a caller cannot make the server read arbitrary files), and the ids of files the
 * caller's entity uploaded with purpose {@code fine-tune} (as OpenAI's {@code training_file} takes them).
 */
public final class TrainingDataPolicy {

    static final String PARAM = "training_data_url";
    private final Path dataDirectory;
    private final FileStore files;

    public TrainingDataPolicy(Path dataDirectory, FileStore files) {
        this.dataDirectory = Objects.requireNonNull(dataDirectory, "dataDirectory").toAbsolutePath().normalize();
        this.files = Objects.requireNonNull(files, "files");
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
            case "file" -> checkFile(uri);
            default -> refuse("training_data_url must be a file:// path inside the data directory, an http(s) URL "
                    + "or the id of an uploaded file (file-...), got '" + url + "'");
        };
    }

    private Outcome<TrainingDataLocation> uploaded(EntityName entity, String id) {
        return FileLookup.ownedBy(files, entity, id, PARAM).then(file -> file.purpose() == FilePurpose.FINE_TUNE
                ? Outcome.done(new TrainingDataLocation.Uploaded(file))
                : refuse("training_data_url " + id + " was uploaded with purpose '" + file.purpose().wireName()
                        + "'; training data must be uploaded with purpose 'fine-tune'"));
    }

    private Outcome<TrainingDataLocation> checkFile(URI uri) {
        if (uri.getPath() == null) {
            return refuse("training_data_url has no path: " + uri);
        }
        Path path = Path.of(uri.getPath()).toAbsolutePath().normalize();
        if (!path.startsWith(dataDirectory)) {
            return refuse("training_data_url must point inside the data directory " + dataDirectory + ", got " + path);
        }
        if (!Files.isRegularFile(path)) {
            return refuse("training_data_url file does not exist: " + path);
        }
        // A symbolic link inside the data directory must not lead outside it.
        try {
            if (!path.toRealPath().startsWith(dataDirectory.toRealPath())) {
                return refuse("training_data_url must point inside the data directory " + dataDirectory + ", got a link to "
                        + path.toRealPath());
            }
        } catch (IOException e) {
            return refuse("training_data_url file cannot be read: " + path);
        }
        return Outcome.done(new TrainingDataLocation.LocalFile(path));
    }

    private static <T> Outcome<T> refuse(String message) {
        return Outcome.refused(Refusal.invalid(PARAM, message));
    }
}
