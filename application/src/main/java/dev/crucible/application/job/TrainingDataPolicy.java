package dev.crucible.application.job;

import dev.crucible.domain.common.Outcome;
import dev.crucible.domain.common.Refusal;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;

/**
 * Which dataset locations an SFT job may read: {@code http(s)://} URLs, and {@code file://} paths inside the
 * configured data directory (so a caller cannot make the server read arbitrary files).
 */
public final class TrainingDataPolicy {

    static final String PARAM = "training_data_url";
    private final Path dataDirectory;

    public TrainingDataPolicy(Path dataDirectory) {
        this.dataDirectory = Objects.requireNonNull(dataDirectory, "dataDirectory").toAbsolutePath().normalize();
    }

    /** Checks {@code url}, returning it normalised or a refusal naming {@code training_data_url}. */
    public Outcome<String> check(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            return refuse("training_data_url is not a valid URL: " + e.getMessage());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        return switch (scheme) {
            case "http", "https" -> uri.getHost() == null ? refuse("training_data_url has no host: " + url)
                    : Outcome.done(uri.toString());
            case "file" -> checkFile(uri);
            default -> refuse("training_data_url must be a file:// path inside the data directory or an http(s) "
                    + "URL, got '" + url + "'");
        };
    }

    private Outcome<String> checkFile(URI uri) {
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
        return Outcome.done(path.toUri().toString());
    }

    private static Outcome<String> refuse(String message) {
        return Outcome.refused(Refusal.invalid(PARAM, message));
    }
}
