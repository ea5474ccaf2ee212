package dev.crucible.application.feedback;

import dev.crucible.kernel.refusal.Excerpt;
import dev.crucible.kernel.refusal.Refusal;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Checks an annotation spec's {@code field_schema} as a program a tenant stores: at most
 * {@link SpecLimits#maxSchemaNodes()} JSON values, at most {@link SpecLimits#maxSchemaDepth()} deep, and every
 * {@code pattern} one that {@link EcmaPattern} runs in linear time within {@link SpecLimits#maxPatternSize()}.
 * Other keywords are not judged here: an unsupported one refuses the feedback that uses the spec, as before.
 */
public final class SpecSchema {

    private SpecSchema() {
    }

    /**
     * The first problem of {@code fieldSchema}, as a refusal naming {@code param} or, for a pattern, the pattern's
     * own path under it ({@code val.field_schema.properties.name.pattern}); empty when there is none.
     */
    public static Optional<Refusal> check(Object fieldSchema, String param, SpecLimits limits) {
        Size size = new Size(limits);
        if (!size.fits(fieldSchema, 1)) {
            return Optional.of(Refusal.invalid(param, size.problem));
        }
        return patterns(fieldSchema, param, limits.maxPatternSize());
    }

    /** Walks the schema's keywords (not its data: enum and const values, property names) for patterns. */
    private static Optional<Refusal> patterns(Object schema, String path, long maxPatternSize) {
        if (!(schema instanceof Map<?, ?> map)) {
            return Optional.empty();
        }
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            String key = String.valueOf(entry.getKey());
            Object v = entry.getValue();
            Optional<Refusal> problem = switch (key) {
                case "pattern" -> v instanceof String p ? pattern(p, path + ".pattern", maxPatternSize)
                        : Optional.empty();
                case "items", "additionalProperties", "not" -> patterns(v, path + "." + key, maxPatternSize);
                case "properties" -> v instanceof Map<?, ?> props ? each(props, path + ".properties", maxPatternSize)
                        : Optional.empty();
                case "allOf", "anyOf", "oneOf" -> v instanceof List<?> list ? each(list, path + "." + key,
                        maxPatternSize) : Optional.empty();
                default -> Optional.empty();
            };
            if (problem.isPresent()) {
                return problem;
            }
        }
        return Optional.empty();
    }

    private static Optional<Refusal> each(Map<?, ?> schemas, String path, long maxPatternSize) {
        for (Map.Entry<?, ?> entry : schemas.entrySet()) {
            Optional<Refusal> problem = patterns(entry.getValue(), path + "." + segment(String.valueOf(entry.getKey())),
                    maxPatternSize);
            if (problem.isPresent()) {
                return problem;
            }
        }
        return Optional.empty();
    }

    /** A property name as a path segment: as it is when plain, else as an escaped excerpt (it is the tenant's). */
    private static String segment(String name) {
        boolean plain = !name.isEmpty() && name.length() <= 64 && name.chars().allMatch(c -> c < 128
                && (Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '$'));
        return plain ? name : Excerpt.of(name);
    }

    private static Optional<Refusal> each(List<?> schemas, String path, long maxPatternSize) {
        for (int i = 0; i < schemas.size(); i++) {
            Optional<Refusal> problem = patterns(schemas.get(i), path + "[" + i + "]", maxPatternSize);
            if (problem.isPresent()) {
                return problem;
            }
        }
        return Optional.empty();
    }

    private static Optional<Refusal> pattern(String pattern, String path, long maxPatternSize) {
        try {
            EcmaPattern.compile(pattern, maxPatternSize);
            return Optional.empty();
        } catch (EcmaPattern.Unsupported e) {
            return Optional.of(Refusal.invalid(path, e.getMessage()));
        }
    }

    /** Counts the schema's JSON values and depth, stopping at the first bound passed. */
    private static final class Size {
        private final SpecLimits limits;
        private int nodes;
        private String problem;

        Size(SpecLimits limits) {
            this.limits = limits;
        }

        boolean fits(Object value, int depth) {
            if (depth > limits.maxSchemaDepth()) {
                problem = "field_schema is nested deeper than " + limits.maxSchemaDepth() + " levels ("
                        + SpecLimits.MAX_SCHEMA_DEPTH_SETTING + ")";
                return false;
            }
            if (++nodes > limits.maxSchemaNodes()) {
                problem = "field_schema has more than " + limits.maxSchemaNodes() + " values ("
                        + SpecLimits.MAX_SCHEMA_NODES_SETTING + ")";
                return false;
            }
            return switch (value) {
                case Map<?, ?> map -> map.values().stream().allMatch(v -> fits(v, depth + 1));
                case List<?> list -> list.stream().allMatch(v -> fits(v, depth + 1));
                case null, default -> true;
            };
        }
    }
}
