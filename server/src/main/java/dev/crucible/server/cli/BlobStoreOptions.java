package dev.crucible.server.cli;

import dev.crucible.adapters.s3.S3Location;
import java.util.HashMap;
import java.util.Map;

/** Reads {@code --blob-store} and S3's environment variables into the application's {@code crucible.blob.*}. */
final class BlobStoreOptions {

    private BlobStoreOptions() {
    }

    /**
     * The properties for {@code store} ({@code local} or {@code s3://bucket[/prefix]}) and, for S3, the endpoint,
     * region and path-style setting found in {@code env}.
     *
     * @throws IllegalArgumentException naming {@code --blob-store} when it is neither
     */
    static Map<String, Object> properties(String store, Map<String, String> env) {
        Map<String, Object> props = new HashMap<>();
        String value = store == null || store.isBlank() ? "local" : store.strip();
        if (!value.equals("local")) {
            S3Location.parse(value);
            put(props, "crucible.blob.s3.endpoint", env.get("CRUCIBLE_S3_ENDPOINT"));
            put(props, "crucible.blob.s3.region", env.getOrDefault("CRUCIBLE_S3_REGION", env.get("AWS_REGION")));
            put(props, "crucible.blob.s3.path-style", env.get("CRUCIBLE_S3_PATH_STYLE"));
        }
        props.put("crucible.blob.store", value);
        return props;
    }

    private static void put(Map<String, Object> props, String key, String value) {
        if (value != null && !value.isBlank()) {
            props.put(key, value.strip());
        }
    }
}
