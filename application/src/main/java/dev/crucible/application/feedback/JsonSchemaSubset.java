package dev.crucible.application.feedback;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A JSON Schema validator for the subset that annotation specs use, over JSON-shaped Java values (no JSON
 * Schema library works on plain maps without a JSON tree library). Validation keywords: {@code type} (one or a
 * list), {@code enum}, {@code const}, {@code minimum}, {@code maximum}, {@code exclusiveMinimum},
 * {@code exclusiveMaximum} (numbers), {@code multipleOf}, {@code minLength}, {@code maxLength} (code points),
 * {@code pattern} (ECMA-262, searched unanchored, in linear time: {@link EcmaPattern}), {@code required},
 * {@code properties},
 * {@code additionalProperties} (boolean or schema), {@code minProperties}, {@code maxProperties}, {@code items}
 * (one schema), {@code minItems}, {@code maxItems}, {@code uniqueItems}, {@code allOf}, {@code anyOf},
 * {@code oneOf}, {@code not}. Annotation keywords ({@code title}, {@code description}, {@code format}, ...) are
 * ignored as in {@code jsonschema.validate}. Any other keyword makes the schema unsupported rather than silently
 * ignored. Numbers compare by value ({@code 1 == 1.0}); booleans are not numbers; {@code 1.0} is an integer.
 * One instance checks one value: it counts its work against {@link SpecLimits#maxCheckWork()} and stops past it
 * ({@link TooMuchWork}). Not thread-safe.
 */
final class JsonSchemaSubset {

    private static final Set<String> IGNORED = Set.of("$schema", "$id", "$comment", "title", "description",
            "default", "examples", "format", "readOnly", "writeOnly", "deprecated", "contentMediaType",
            "contentEncoding");

    private final SpecLimits limits;
    private final Map<String, EcmaPattern> patterns = new HashMap<>();
    private long work;

    JsonSchemaSubset(SpecLimits limits) {
        this.limits = limits;
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
     * Whether {@code value} is valid against {@code schema}, which has no unsupported keyword and passed
     * {@link SpecSchema#check}.
     *
     * @throws TooMuchWork when the check would take more than {@link SpecLimits#maxCheckWork()}
     * @throws EcmaPattern.Unsupported when a pattern cannot be run
     */
    boolean matches(Object value, Object schema) {
        spend(1);
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
                && (!(value instanceof List<?> list) || JsonSchemaCollections.arrayMatches(this, list, s))
                && (!(value instanceof Map<?, ?> obj) || JsonSchemaCollections.objectMatches(this, obj, s))
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

    private boolean stringMatches(String value, Map<?, ?> s) {
        int length = value.codePointCount(0, value.length());
        return (!(s.get("minLength") instanceof Number min) || length >= min.doubleValue())
                && (!(s.get("maxLength") instanceof Number max) || length <= max.doubleValue())
                && (!(s.get("pattern") instanceof String p) || search(p, value));
    }

    /** Searches {@code text} for {@code pattern}, paying first for the most the search can cost. */
    private boolean search(String pattern, String text) {
        EcmaPattern compiled = patterns.get(pattern);
        if (compiled == null) {
            spend(pattern.length());
            compiled = EcmaPattern.compile(pattern, limits.maxPatternSize());
            patterns.put(pattern, compiled);
        }
        // RE2/J's work per character of text is at most proportional to the pattern's size
        spend(product(compiled.size(), text.length() + 1L));
        return compiled.find(text);
    }

    private static long product(long a, long b) {
        try {
            return Math.multiplyExact(a, b);
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    /** Counts {@code steps} of work, stopping the check once it is past the bound. */
    void spend(long steps) {
        work = steps > limits.maxCheckWork() - work ? Long.MAX_VALUE : work + steps;
        if (work > limits.maxCheckWork()) {
            throw new TooMuchWork(limits.maxCheckWork());
        }
    }

    private boolean combinatorsMatch(Object value, Map<?, ?> s) {
        return (!(s.get("allOf") instanceof List<?> all) || all.stream().allMatch(sub -> matches(value, sub)))
                && (!(s.get("anyOf") instanceof List<?> any) || any.stream().anyMatch(sub -> matches(value, sub)))
                && (!(s.get("oneOf") instanceof List<?> one)
                        || one.stream().filter(sub -> matches(value, sub)).count() == 1)
                && (!s.containsKey("not") || !matches(value, s.get("not")));
    }

    private static Optional<String> first(java.util.Collection<?> schemas) {
        return schemas.stream().map(JsonSchemaSubset::unsupportedKeyword).flatMap(Optional::stream).findFirst();
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

    /** A check stopped because it would do more work than {@link SpecLimits#maxCheckWork()} allows. */
    static final class TooMuchWork extends RuntimeException {
        TooMuchWork(long bound) {
            super("more than " + bound + " steps", null, false, false);
        }
    }
}
