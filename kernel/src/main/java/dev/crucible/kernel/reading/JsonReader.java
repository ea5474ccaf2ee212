package dev.crucible.kernel.reading;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.RefusalException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Typed reads of one JSON object ({@code String}, {@code Number}, {@code Boolean}, {@code List}, {@code Map}, null
 * as a parser builds them), the one reader for request bodies, job configs and dataset lines. A missing key and
 * {@code null} both mean absent: an {@link Optional} read is empty and a read with a fallback gives the fallback. A
 * wrong type or value stops the read with a {@link RefusalException} whose invalid-request refusal names the value
 * by its path ({@code trajectory_groups[0].trajectories[1].reward}); {@link #read} turns it into an
 * {@link Outcome}, and at the HTTP edge it becomes a 400 as it is. Not thread-safe; cheap to create.
 */
public final class JsonReader {

    private final Map<String, Object> values;
    private final String path;

    /** @param path where this object is in the document ({@code ""} at the top), the prefix of every name */
    public JsonReader(Map<String, Object> values, String path) {
        this.values = Objects.requireNonNull(values, "values");
        this.path = Objects.requireNonNull(path, "path");
    }

    /** A reader body that may stop at the first invalid value. */
    @FunctionalInterface
    public interface Body<T> {
        T read(JsonReader reader);
    }

    /** Runs {@code body} over {@code values} at {@code path}, returning its value or the first refusal it raised. */
    public static <T> Outcome<T> read(Map<String, Object> values, String path, Body<T> body) {
        try {
            return Outcome.done(body.read(new JsonReader(values, path)));
        } catch (RefusalException refused) {
            return Outcome.refused(refused.refusal());
        }
    }

    /** As {@link #read(Map, String, Body)} at the top, after refusing keys outside {@code known} ({@link #onlyKnown}). */
    public static <T> Outcome<T> read(Map<String, Object> values, Set<String> known, Body<T> body) {
        return read(values, "", r -> body.read(r.onlyKnown(known)));
    }

    /**
     * Refuses a non-null key outside {@code known}, as pydantic's {@code extra="forbid"} does; a null one is ignored,
     * since newer clients send their newer fields as null (Weave's {@code scorer_*}, {@code span_*}).
     */
    public JsonReader onlyKnown(Set<String> known) {
        for (String key : values.keySet()) {
            if (!known.contains(key) && values.get(key) != null) {
                throw reject(key, "is not a known field (extra inputs are not permitted)");
            }
        }
        return this;
    }

    /** The path of {@code key} in this object. */
    public String path(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    /** A refusal naming {@code key}: the message is its path, a space and {@code problem}. */
    public RefusalException reject(String key, String problem) {
        return fail(path(key), path(key) + " " + problem);
    }

    /** A refusal naming {@code path} with {@code message} as it is. */
    public static RefusalException fail(String path, String message) {
        return RefusalException.invalid(path, message);
    }

    public RefusalException missing(String key) {
        return reject(key, "is required");
    }

    /** Refuses when {@code key} is there at all, even as null (for fields the client must not set). */
    public void forbid(String key, String why) {
        if (values.containsKey(key)) {
            throw reject(key, why);
        }
    }

    public Map<String, Object> raw() {
        return values;
    }

    public Object raw(String key) {
        return values.get(key);
    }

    public boolean present(String key) {
        return values.get(key) != null;
    }

    public Optional<String> string(String key) {
        return typed(key, String.class, "a string");
    }

    public String string(String key, String fallback) {
        return string(key).orElse(fallback);
    }

    public String requireString(String key) {
        return string(key).orElseThrow(() -> missing(key));
    }

    public String oneOf(String key, String fallback, Set<String> allowed) {
        String v = string(key, fallback);
        if (v != null && !allowed.contains(v)) {
            throw reject(key, "must be one of " + allowed.stream().sorted().toList() + ", got '" + v + "'");
        }
        return v;
    }

    public Optional<Boolean> bool(String key) {
        return typed(key, Boolean.class, "a boolean");
    }

    public boolean bool(String key, boolean fallback) {
        return bool(key).orElse(fallback);
    }

    /** A finite number; an infinite one (a literal beyond the double range) is "a finite number" refused. */
    public Optional<Double> number(String key) {
        Optional<Number> n = typed(key, Number.class, "a number");
        if (n.isPresent() && !Double.isFinite(n.get().doubleValue())) {
            throw reject(key, "must be a finite number, got " + describe(n.get()));
        }
        return n.map(Number::doubleValue);
    }

    /** A finite number or {@code fallback}; an infinite one is refused as not "a number" (configs say so). */
    public Double number(String key, Double fallback) {
        Object v = values.get(key);
        if (v == null) {
            return fallback;
        }
        if (!(v instanceof Number n) || !Double.isFinite(n.doubleValue())) {
            throw reject(key, "must be a number, got " + describe(v));
        }
        return n.doubleValue();
    }

    public Double number(String key, Double fallback, double min, double max) {
        Double v = number(key, fallback);
        if (v != null && (v < min || v > max)) {
            throw reject(key, "must be between " + min + " and " + max + ", got " + v);
        }
        return v;
    }

    public Double positive(String key, Double fallback) {
        Double v = number(key, fallback);
        if (v != null && v <= 0) {
            throw reject(key, "must be > 0, got " + v);
        }
        return v;
    }

    public Integer integer(String key, Integer fallback, int min) {
        Object v = values.get(key);
        if (v == null) {
            return fallback;
        }
        if (!(v instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue())
                || Math.abs(n.doubleValue()) > Integer.MAX_VALUE) {
            throw reject(key, "must be an integer, got " + describe(v));
        }
        if (n.intValue() < min) {
            throw reject(key, "must be >= " + min + ", got " + n.intValue());
        }
        return n.intValue();
    }

    /** The object at {@code key}, read at its path. */
    public Optional<JsonReader> object(String key) {
        @SuppressWarnings("unchecked")
        Optional<Map<String, Object>> map = typed(key, Map.class, "an object").map(m -> (Map<String, Object>) m);
        return map.map(m -> new JsonReader(m, path(key)));
    }

    public JsonReader requireObject(String key) {
        return object(key).orElseThrow(() -> missing(key));
    }

    public Optional<List<Object>> array(String key) {
        @SuppressWarnings("unchecked")
        Optional<List<Object>> list = typed(key, List.class, "an array").map(l -> (List<Object>) l);
        return list;
    }

    public List<Object> requireArray(String key) {
        return array(key).orElseThrow(() -> missing(key));
    }

    /** The elements of array {@code key} as objects read at {@code key[i]}; a non-object element is refused there. */
    public List<JsonReader> objects(String key) {
        List<Object> items = array(key).orElse(List.of());
        List<JsonReader> out = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            String at = path(key) + "[" + i + "]";
            if (!(items.get(i) instanceof Map<?, ?> map)) {
                throw fail(at, at + " must be an object, got " + describe(items.get(i)));
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> fields = (Map<String, Object>) map;
            out.add(new JsonReader(fields, at));
        }
        return out;
    }

    private <T> Optional<T> typed(String key, Class<T> type, String expected) {
        Object value = values.get(key);
        if (value == null) {
            return Optional.empty();
        }
        if (!type.isInstance(value)) {
            throw reject(key, "must be " + expected + ", got " + describe(value));
        }
        return Optional.of(type.cast(value));
    }

    /** A short description of a JSON value's type for messages ({@code a string}, {@code the number 3}). */
    public static String describe(Object v) {
        return switch (v) {
            case null -> "null";
            case String s -> "a string";
            case Boolean b -> "a boolean";
            case Number n -> "the number " + n;
            case List<?> l -> "an array";
            case Map<?, ?> m -> "an object";
            default -> v.getClass().getSimpleName();
        };
    }
}
