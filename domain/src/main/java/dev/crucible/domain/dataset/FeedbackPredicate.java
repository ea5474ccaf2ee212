package dev.crucible.domain.dataset;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Which feedback counts and what it scores. A completion's feedback is its latest row of {@code type}; the value at
 * {@code path} in that row's payload is its score: with {@code equals}, 1 when the value equals it and 0 otherwise;
 * without, the value as a number (a boolean is 1 or 0). The row passes when its score exists, equals (with
 * {@code equals}) or lies within {@code min}..{@code max} (each when given); with no path every row of the type
 * passes and scores nothing.
 *
 * @param type   the {@code feedback_type} read
 * @param path   the payload field, as its dotted segments; empty for none
 * @param equals the value the field must have: a string, a number or a boolean
 * @param min    the least passing score, inclusive
 * @param max    the greatest passing score, inclusive
 */
public record FeedbackPredicate(String type, List<String> path, Optional<Object> equals, OptionalDouble min,
        OptionalDouble max) {

    public FeedbackPredicate {
        Objects.requireNonNull(type, "type");
        if (type.isEmpty()) {
            throw new IllegalArgumentException("feedback.type must not be empty");
        }
        path = List.copyOf(path);
        if (path.stream().anyMatch(String::isEmpty)) {
            throw new IllegalArgumentException("feedback.payload_path has an empty segment");
        }
        Objects.requireNonNull(equals, "equals");
        equals.ifPresent(value -> {
            if (!(value instanceof String || value instanceof Number || value instanceof Boolean)) {
                throw new IllegalArgumentException("feedback.equals must be a string, number or boolean");
            }
        });
        Objects.requireNonNull(min, "min");
        Objects.requireNonNull(max, "max");
        if ((equals.isPresent() || min.isPresent() || max.isPresent()) && path.isEmpty()) {
            throw new IllegalArgumentException("feedback.payload_path is required with equals, min or max");
        }
        if (min.isPresent() && max.isPresent() && min.getAsDouble() > max.getAsDouble()) {
            throw new IllegalArgumentException("feedback.min must not exceed feedback.max, got " + min.getAsDouble()
                    + " > " + max.getAsDouble());
        }
    }

    /** The score of a row with {@code payload}, or empty when the field is absent or neither number nor boolean. */
    public OptionalDouble score(Map<String, Object> payload) {
        if (path.isEmpty()) {
            return OptionalDouble.empty();
        }
        Object value = payload;
        for (String segment : path) {
            if (!(value instanceof Map<?, ?> map)) {
                return OptionalDouble.empty();
            }
            value = map.get(segment);
        }
        if (equals.isPresent()) {
            return value == null ? OptionalDouble.empty() : OptionalDouble.of(same(equals.get(), value) ? 1 : 0);
        }
        return switch (value) {
            case Number number -> OptionalDouble.of(number.doubleValue());
            case Boolean bool -> OptionalDouble.of(bool ? 1 : 0);
            case null, default -> OptionalDouble.empty();
        };
    }

    /** Whether a row with {@code payload} passes. */
    public boolean passes(Map<String, Object> payload) {
        if (path.isEmpty()) {
            return true;
        }
        OptionalDouble score = score(payload);
        if (score.isEmpty()) {
            return false;
        }
        if (equals.isPresent()) {
            return score.getAsDouble() == 1;
        }
        double s = score.getAsDouble();
        return (min.isEmpty() || s >= min.getAsDouble()) && (max.isEmpty() || s <= max.getAsDouble());
    }

    private static boolean same(Object expected, Object actual) {
        if (expected instanceof Number a && actual instanceof Number b) {
            return a.doubleValue() == b.doubleValue();
        }
        return expected.equals(actual);
    }
}
