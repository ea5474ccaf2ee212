package dev.crucible.domain.feedback;

import dev.crucible.domain.reading.ConfigReader;
import dev.crucible.domain.refusal.Outcome;
import dev.crucible.domain.refusal.Refusal;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Typed reads from a feedback request body, where a missing key and {@code null} both mean "absent". A read
 * stops at the first problem with an invalid-request refusal naming the key.
 */
final class FeedbackBody {

    private final Map<String, Object> values;

    private FeedbackBody(Map<String, Object> values) {
        this.values = values;
    }

    /** Runs {@code body} over {@code values} after refusing non-null keys outside {@code known}. */
    static <T> Outcome<T> read(Map<String, Object> values, Set<String> known, Function<FeedbackBody, T> body) {
        Objects.requireNonNull(values, "values");
        try {
            for (String key : values.keySet()) {
                // Newer Weave clients send their newer fields (scorer_*, span_*) as null: null extras are ignored.
                if (!known.contains(key) && values.get(key) != null) {
                    throw fail(key, key + " is not a known field (extra inputs are not permitted)");
                }
            }
            return Outcome.done(body.apply(new FeedbackBody(values)));
        } catch (Stop stop) {
            return Outcome.refused(stop.refusal);
        }
    }

    /** Stops the read with {@code message}, naming {@code param}. */
    static Stop fail(String param, String message) {
        return new Stop(Refusal.invalid(param, message));
    }

    boolean present(String key) {
        return values.get(key) != null;
    }

    Object raw(String key) {
        return values.get(key);
    }

    Optional<String> string(String key) {
        Object value = values.get(key);
        if (value != null && !(value instanceof String)) {
            throw fail(key, key + " must be a string, got " + ConfigReader.describe(value));
        }
        return Optional.ofNullable((String) value);
    }

    String requiredString(String key) {
        return string(key).orElseThrow(() -> fail(key, key + " is required"));
    }

    ProjectId project() {
        String text = requiredString("project_id");
        return ProjectId.tryParse(text).orElseThrow(() -> fail("project_id", ProjectId.problem(text)));
    }

    /** Stops a read; caught in {@link #read} and never escapes it. */
    static final class Stop extends RuntimeException {
        private final transient Refusal refusal;

        private Stop(Refusal refusal) {
            super(refusal.message(), null, false, false);
            this.refusal = refusal;
        }
    }
}
