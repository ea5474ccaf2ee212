package dev.crucible.kernel.reading;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/** Helpers for JSON-shaped maps, where {@code null} values mean "absent". */
public final class JsonMaps {

    private JsonMaps() {
    }

    /** An unmodifiable copy of {@code map} without its null-valued keys. */
    public static Map<String, Object> withoutNulls(Map<String, Object> map) {
        Map<String, Object> copy = new LinkedHashMap<>();
        Objects.requireNonNull(map, "map").forEach((k, v) -> {
            if (v != null) {
                copy.put(k, v);
            }
        });
        return Map.copyOf(copy);
    }
}
