package dev.crucible.domain.completion;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A stored completion's {@code metadata}, as OpenAI bounds it: at most {@value #MAX_PAIRS} pairs of strings, keys of
 * 1 to {@value #MAX_KEY} characters, values of at most {@value #MAX_VALUE}, and no U+0000 (PostgreSQL's JSON refuses
 * it). Insertion order is kept.
 *
 * @param pairs the keys and values
 */
public record CompletionMetadata(Map<String, String> pairs) {

    public static final int MAX_PAIRS = 16;
    public static final int MAX_KEY = 64;
    public static final int MAX_VALUE = 512;

    public CompletionMetadata {
        Objects.requireNonNull(pairs, "pairs");
        String problem = problemOf(pairs.size(), pairs);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        pairs = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(pairs));
    }

    /** No metadata. */
    public static CompletionMetadata empty() {
        return new CompletionMetadata(Map.of());
    }

    /**
     * Reads {@code metadata} from a parsed JSON value: null is empty; anything but an object of strings within the
     * bounds is refused as invalid, naming {@code param} or, for one pair, {@code param.<key>}.
     */
    public static Outcome<CompletionMetadata> read(String param, Object raw) {
        if (raw == null) {
            return Outcome.done(empty());
        }
        if (!(raw instanceof Map<?, ?> map)) {
            return invalid(param, param + " must be an object of string keys and string values");
        }
        if (map.size() > MAX_PAIRS) {
            return invalid(param, param + " may have at most " + MAX_PAIRS + " pairs, got " + map.size());
        }
        Map<String, String> pairs = new LinkedHashMap<>();
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            String key = String.valueOf(entry.getKey());
            String at = param + "." + printable(key);
            if (!(entry.getValue() instanceof String value)) {
                return invalid(at, at + " must be a string");
            }
            String problem = pairProblem(at, key, value);
            if (problem != null) {
                return invalid(at, problem);
            }
            pairs.put(key, value);
        }
        return Outcome.done(new CompletionMetadata(pairs));
    }

    private static String problemOf(int size, Map<String, String> pairs) {
        if (size > MAX_PAIRS) {
            return "metadata may have at most " + MAX_PAIRS + " pairs, got " + size;
        }
        for (Map.Entry<String, String> pair : pairs.entrySet()) {
            String problem = pairProblem("metadata." + printable(pair.getKey()), pair.getKey(), pair.getValue());
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }

    private static String pairProblem(String at, String key, String value) {
        Objects.requireNonNull(key, "metadata key");
        Objects.requireNonNull(value, "metadata value");
        if (key.isEmpty() || key.length() > MAX_KEY) {
            return at + ": keys must be 1 to " + MAX_KEY + " characters, got " + key.length();
        }
        if (value.length() > MAX_VALUE) {
            return at + " must be at most " + MAX_VALUE + " characters, got " + value.length();
        }
        if (key.indexOf('\0') >= 0 || value.indexOf('\0') >= 0) {
            return at + " must not contain U+0000";
        }
        return null;
    }

    /** The key as a parameter name: cut to its bound so that a refusal never echoes a long key whole. */
    private static String printable(String key) {
        String cut = key.length() > MAX_KEY ? key.substring(0, MAX_KEY) + "…" : key;
        return cut.replace('\0', '\uFFFD');
    }

    private static <T> Outcome<T> invalid(String param, String message) {
        return Outcome.refused(Refusal.invalid(param, message));
    }
}
