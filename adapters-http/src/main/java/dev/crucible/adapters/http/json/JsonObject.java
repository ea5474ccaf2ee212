package dev.crucible.adapters.http.json;

import dev.crucible.domain.refusal.RefusalException;
import dev.crucible.domain.reading.ConfigReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A JSON object of a request with typed, named reads: a wrong type is a 400 naming the field by its path
 * ({@code trajectory_groups[0].trajectories[1].reward}). Absent and {@code null} fields read as empty.
 */
public final class JsonObject {

    private final Map<String, Object> fields;
    private final String path;

    public JsonObject(Map<String, Object> fields, String path) {
        this.fields = fields;
        this.path = path;
    }

    public Map<String, Object> raw() {
        return fields;
    }

    public String path(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    public boolean has(String key) {
        return fields.get(key) != null;
    }

    public Optional<String> string(String key) {
        return typed(key, String.class, "a string");
    }

    public String requireString(String key) {
        return string(key).orElseThrow(() -> missing(key));
    }

    public Optional<Boolean> bool(String key) {
        return typed(key, Boolean.class, "a boolean");
    }

    public Optional<Double> number(String key) {
        Optional<Number> n = typed(key, Number.class, "a number");
        if (n.isPresent() && !Double.isFinite(n.get().doubleValue())) {
            throw wrong(key, "a finite number", n.get());
        }
        return n.map(Number::doubleValue);
    }

    public Optional<JsonObject> object(String key) {
        return this.<Map<String, Object>>typedMap(key).map(m -> new JsonObject(m, path(key)));
    }

    public JsonObject requireObject(String key) {
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

    /** The elements of array {@code key} as objects; a non-object element is a 400 naming its index. */
    public List<JsonObject> objects(String key) {
        List<Object> items = array(key).orElse(List.of());
        List<JsonObject> out = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            String at = path(key) + "[" + i + "]";
            if (!(items.get(i) instanceof Map<?, ?> map)) {
                throw RefusalException.invalid(at, at + " must be an object, got " + ConfigReader.describe(items.get(i)));
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> fieldsOf = (Map<String, Object>) map;
            out.add(new JsonObject(fieldsOf, at));
        }
        return out;
    }

    /** Refuses when {@code key} is present at all (for fields the client must not set). */
    public void forbid(String key, String why) {
        if (fields.containsKey(key)) {
            throw RefusalException.invalid(path(key), path(key) + " " + why);
        }
    }

    public RefusalException missing(String key) {
        return RefusalException.invalid(path(key), path(key) + " is required");
    }

    @SuppressWarnings("unchecked")
    private <T> Optional<T> typedMap(String key) {
        return (Optional<T>) typed(key, Map.class, "an object");
    }

    private <T> Optional<T> typed(String key, Class<T> type, String expected) {
        Object value = fields.get(key);
        if (value == null) {
            return Optional.empty();
        }
        if (!type.isInstance(value)) {
            throw wrong(key, expected, value);
        }
        return Optional.of(type.cast(value));
    }

    private RefusalException wrong(String key, String expected, Object value) {
        return RefusalException.invalid(path(key), path(key) + " must be " + expected + ", got " + ConfigReader.describe(value));
    }
}
