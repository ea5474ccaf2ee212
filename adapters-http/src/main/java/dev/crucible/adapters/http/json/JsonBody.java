package dev.crucible.adapters.http.json;

import dev.crucible.adapters.http.error.RefusalException;
import io.micronaut.core.type.Argument;
import io.micronaut.json.JsonMapper;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.util.Map;

/**
 * Parses request bodies into plain JSON values ({@code Map}, {@code List}, {@code String}, {@code Number},
 * {@code Boolean}, null) so that each field's type can be checked and refused by name.
 */
@Singleton
public final class JsonBody {

    private final JsonMapper mapper;

    JsonBody(JsonMapper mapper) {
        this.mapper = mapper;
    }

    /** Parses {@code body} as a JSON object; a missing, malformed or non-object body is a 400. */
    public JsonObject object(String body) {
        if (body == null || body.isBlank()) {
            throw RefusalException.invalid(null, "request body must be a JSON object, got an empty body");
        }
        Object parsed;
        try {
            parsed = mapper.readValue(body, Argument.OBJECT_ARGUMENT);
        } catch (IOException e) {
            throw RefusalException.invalid(null, "request body is not valid JSON: " + firstLine(e.getMessage()));
        }
        if (!(parsed instanceof Map<?, ?> map)) {
            throw RefusalException.invalid(null, "request body must be a JSON object");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> fields = (Map<String, Object>) map;
        return new JsonObject(fields, "");
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int nl = message.indexOf('\n');
        String line = nl < 0 ? message : message.substring(0, nl);
        return line.length() > 200 ? line.substring(0, 200) : line;
    }
}
