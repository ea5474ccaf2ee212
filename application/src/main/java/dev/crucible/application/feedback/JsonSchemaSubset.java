package dev.crucible.application.feedback;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A JSON Schema validator for the subset that annotation specs use, over JSON-shaped Java values (no JSON
 * Schema library works on plain maps without a JSON tree library). Validation keywords: {@code type} (one or a
 * list), {@code enum}, {@code const}, {@code minimum}, {@code maximum}, {@code exclusiveMinimum},
 * {@code exclusiveMaximum} (numbers), {@code multipleOf}, {@code minLength}, {@code maxLength} (code points),
 * {@code pattern} (searched, as Python's {@code re.search}), {@code required}, {@code properties},
 * {@code additionalProperties} (boolean or schema), {@code minProperties}, {@code maxProperties}, {@code items}
 * (one schema), {@code minItems}, {@code maxItems}, {@code uniqueItems}, {@code allOf}, {@code anyOf},
 * {@code oneOf}, {@code not}. Annotation keywords ({@code title}, {@code description}, {@code format}, ...) are
 * ignored as in {@code jsonschema.validate}. Any other keyword makes the schema unsupported rather than silently
 * ignored. Numbers compare by value ({@code 1 == 1.0}); booleans are not numbers; {@code 1.0} is an integer.
 */
final class JsonSchemaSubset {

    private static final Set<String> IGNORED = Set.of("$schema", "$id", "$comment", "title", "description",
            "default", "examples", "format", "readOnly", "writeOnly", "deprecated", "contentMediaType",
            "contentEncoding");

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
                case "pattern" -> compiles(v) ? Optional.empty() : Optional.of("pattern");
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

    /** Whether {@code value} is valid against {@code schema}, which has no unsupported keyword. */
    static boolean matches(Object value, Object schema) {
        if (schema instanceof Boolean b) {
            return b;
        }
        Map<?, ?> s = (Map<?, ?>) schema;
        if (value instanceof Double d && !Double.isFinite(d)) {
            return false;
        }
        return typeMatches(value, s.get("type"))
                && (!(s.get("enum") instanceof List<?> options)
                        || options.stream().anyMatch(e -> JsonValues.equal(e, value)))
                && (!s.containsKey("const") || JsonValues.equal(s.get("const"), value))
                && (!(value instanceof Number n) || NumberRules.matches(JsonValues.decimal(n), s))
                && (!(value instanceof String str) || stringMatches(str, s))
                && (!(value instanceof List<?> list) || JsonSchemaCollections.arrayMatches(list, s))
                && (!(value instanceof Map<?, ?> obj) || JsonSchemaCollections.objectMatches(obj, s))
                && combinatorsMatch(value, s);
    }

    private static boolean typeMatches(Object value, Object type) {
        return switch (type) {
            case null -> true;
            case String name -> JsonValues.hasType(value, name);
            case List<?> names -> names.stream().anyMatch(n -> JsonValues.hasType(value, String.valueOf(n)));
            default -> false;
        };
    }

    private static boolean stringMatches(String value, Map<?, ?> s) {
        int length = value.codePointCount(0, value.length());
        return (!(s.get("minLength") instanceof Number min) || length >= min.doubleValue())
                && (!(s.get("maxLength") instanceof Number max) || length <= max.doubleValue())
                && (!(s.get("pattern") instanceof String p) || Pattern.compile(p).matcher(value).find());
    }

    private static boolean combinatorsMatch(Object value, Map<?, ?> s) {
        return (!(s.get("allOf") instanceof List<?> all) || all.stream().allMatch(sub -> matches(value, sub)))
                && (!(s.get("anyOf") instanceof List<?> any) || any.stream().anyMatch(sub -> matches(value, sub)))
                && (!(s.get("oneOf") instanceof List<?> one)
                        || one.stream().filter(sub -> matches(value, sub)).count() == 1)
                && (!s.containsKey("not") || !matches(value, s.get("not")));
    }

    private static Optional<String> first(java.util.Collection<?> schemas) {
        return schemas.stream().map(JsonSchemaSubset::unsupportedKeyword).flatMap(Optional::stream).findFirst();
    }

    private static boolean compiles(Object pattern) {
        try {
            Pattern.compile(String.valueOf(pattern));
            return pattern instanceof String;
        } catch (PatternSyntaxException e) {
            return false;
        }
    }

    /** Keywords for numbers. */
    private static final class NumberRules {
        static boolean matches(BigDecimal n, Map<?, ?> s) {
            return bound(s.get("minimum"), b -> n.compareTo(b) >= 0)
                    && bound(s.get("maximum"), b -> n.compareTo(b) <= 0)
                    && bound(s.get("exclusiveMinimum"), b -> n.compareTo(b) > 0)
                    && bound(s.get("exclusiveMaximum"), b -> n.compareTo(b) < 0)
                    && bound(s.get("multipleOf"), b -> b.signum() > 0 && n.remainder(b).signum() == 0);
        }

        private static boolean bound(Object limit, java.util.function.Predicate<BigDecimal> test) {
            return !(limit instanceof Number l) || test.test(JsonValues.decimal(l));
        }
    }
}
