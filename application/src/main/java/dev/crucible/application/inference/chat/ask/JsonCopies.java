package dev.crucible.application.inference.chat.ask;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Unmodifiable copies of JSON-shaped collections, which may hold null values (so not {@code Map.copyOf}). */
final class JsonCopies {

    private JsonCopies() {
    }

    static <K, V> Map<K, V> map(Map<K, V> map) {
        return map == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(map));
    }

    static <T> List<T> list(List<T> list) {
        return list == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(list));
    }

    static List<Map<String, Object>> maps(List<Map<String, Object>> list) {
        return list == null ? List.of() : list.stream().map(JsonCopies::map).toList();
    }
}
