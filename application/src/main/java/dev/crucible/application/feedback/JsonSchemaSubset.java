package dev.crucible.application.feedback;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The JSON Schema keywords annotation specs may use, the ones {@link JsonSchemaValidator} is asked to check:
 * {@code type} (one or a list), {@code enum}, {@code const}, {@code minimum}, {@code maximum},
 * {@code exclusiveMinimum}, {@code exclusiveMaximum}, {@code multipleOf}, {@code minLength}, {@code maxLength},
 * {@code pattern} (ECMA-262, searched unanchored, in linear time: {@link EcmaPattern}), {@code required},
 * {@code properties}, {@code additionalProperties} (boolean or schema), {@code minProperties}, {@code maxProperties},
 * {@code items} (one schema), {@code minItems}, {@code maxItems}, {@code uniqueItems}, {@code allOf}, {@code anyOf},
 * {@code oneOf}, {@code not}. Annotation keywords ({@code title}, {@code description}, {@code format}, ...) are
 * ignored as in {@code jsonschema.validate}. Any other keyword makes the schema unsupported rather than silently
 * ignored; so a spec never refers outside itself ({@code $ref}) and never names another dialect.
 */
final class JsonSchemaSubset {

    private static final Set<String> IGNORED = Set.of("$schema", "$id", "$comment", "title", "description",
            "default", "examples", "format", "readOnly", "writeOnly", "deprecated", "contentMediaType",
            "contentEncoding");

    /** Keywords that name a dialect or a base address: a validator might fetch what they name, so they go. */
    private static final Set<String> IDENTIFYING = Set.of("$schema", "$id");

    private JsonSchemaSubset() {
    }

    /** The first keyword of {@code schema} (at any depth) outside the subset, or empty when all are supported. */
    static Optional<String> unsupportedKeyword(Object schema) {
        if (schema instanceof Boolean) {
            return Optional.empty();
        }
        if (!(schema instanceof Map<?, ?> map)) {
            return Optional.of("(a schema must be an object or a boolean)");
        }
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            String key = String.valueOf(entry.getKey());
            Object v = entry.getValue();
            Optional<String> problem = switch (key) {
                case "const" -> Optional.empty();
                case "type" -> v instanceof String || v instanceof List<?> ? Optional.empty() : Optional.of(key);
                case "enum", "required" -> v instanceof List<?> ? Optional.empty() : Optional.of(key);
                case "uniqueItems" -> v instanceof Boolean ? Optional.empty() : Optional.of(key);
                case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength",
                     "maxLength", "minProperties", "maxProperties", "minItems", "maxItems" ->
                        v instanceof Number n && Double.isFinite(n.doubleValue()) ? Optional.empty() : Optional.of(key);
                case "pattern" -> v instanceof String ? Optional.empty() : Optional.of("pattern");
                case "items", "additionalProperties", "not" -> unsupportedKeyword(v);
                case "properties" -> v instanceof Map<?, ?> props ? first(props.values()) : Optional.of(key);
                case "allOf", "anyOf", "oneOf" -> v instanceof List<?> list ? first(list) : Optional.of(key);
                default -> IGNORED.contains(key) ? Optional.empty() : Optional.of(key);
            };
            if (problem.isPresent()) {
                return problem;
            }
        }
        return Optional.empty();
    }

    /**
     * {@code schema}, which has no unsupported keyword, without {@code $schema} and {@code $id} at any depth: what
     * {@link JsonSchemaValidator} is given, so that no validator loads a dialect or a document a tenant names.
     */
    static Object withoutIdentifiers(Object schema) {
        if (!(schema instanceof Map<?, ?> map)) {
            return schema;
        }
        Map<Object, Object> out = new java.util.LinkedHashMap<>();
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            String key = String.valueOf(entry.getKey());
            Object v = entry.getValue();
            if (!IDENTIFYING.contains(key)) {
                out.put(key, switch (key) {
                    case "items", "additionalProperties", "not" -> withoutIdentifiers(v);
                    case "properties" -> eachValue((Map<?, ?>) v);
                    case "allOf", "anyOf", "oneOf" -> ((List<?>) v).stream().map(JsonSchemaSubset::withoutIdentifiers)
                            .toList();
                    default -> v;
                });
            }
        }
        return out;
    }

    private static Map<Object, Object> eachValue(Map<?, ?> schemas) {
        Map<Object, Object> out = new java.util.LinkedHashMap<>();
        schemas.forEach((name, schema) -> out.put(name, withoutIdentifiers(schema)));
        return out;
    }

    private static Optional<String> first(java.util.Collection<?> schemas) {
        return schemas.stream().map(JsonSchemaSubset::unsupportedKeyword).flatMap(Optional::stream).findFirst();
    }
}
