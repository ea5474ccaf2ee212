package dev.crucible.application.inference.chat.ask;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A chat request's {@code response_format}.
 *
 * @param type       which format
 * @param jsonSchema present exactly when {@code type} is {@link Type#JSON_SCHEMA}
 * @param raw        the object as sent (for the structural-tag form, which is passed on unread)
 */
public record ResponseFormat(Type type, Optional<JsonSchema> jsonSchema, Map<String, Object> raw) {

    /** The {@code type} values vLLM accepts. */
    public enum Type { TEXT, JSON_OBJECT, JSON_SCHEMA, STRUCTURAL_TAG }

    public ResponseFormat {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(jsonSchema, "jsonSchema");
        raw = JsonCopies.map(raw);
    }

    /**
     * The {@code json_schema} member.
     *
     * @param schema the JSON schema, empty when not sent
     */
    public record JsonSchema(String name, Optional<String> description, Optional<Map<String, Object>> schema,
            Optional<Boolean> strict) {

        public JsonSchema {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(description, "description");
            schema = Objects.requireNonNull(schema, "schema").map(JsonCopies::map);
            Objects.requireNonNull(strict, "strict");
        }
    }
}
