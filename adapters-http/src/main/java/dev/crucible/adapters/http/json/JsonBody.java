package dev.crucible.adapters.http.json;

import dev.crucible.adapters.http.error.RefusalException;
import jakarta.inject.Singleton;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Parses request bodies into plain JSON values ({@code Map}, {@code List}, {@code String}, {@code Number},
 * {@code Boolean}, null) so that each field's type can be checked and refused by name.
 */
@Singleton
public final class JsonBody {

    private final JsonValueReader reader;

    JsonBody(JsonLimits limits) {
        this.reader = new JsonValueReader(limits);
    }

    /** Parses {@code body} as a JSON object; a missing, malformed or non-object body is a 400. */
    public JsonObject object(String body) {
        if (body == null || body.isBlank()) {
            throw RefusalException.invalid(null, "request body must be a JSON object, got an empty body");
        }
        Object parsed;
        try {
            parsed = reader.read(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (!(parsed instanceof Map<?, ?> map)) {
            throw RefusalException.invalid(null, "request body must be a JSON object");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> fields = (Map<String, Object>) map;
        return new JsonObject(fields, "");
    }
}
