package dev.crucible.application.feedback;

import java.util.List;
import java.util.Map;

/** The array and object keywords of {@link JsonSchemaSubset}. */
final class JsonSchemaCollections {

    private JsonSchemaCollections() {
    }

    static boolean arrayMatches(JsonSchemaSubset check, List<?> list, Map<?, ?> s) {
        if (s.get("minItems") instanceof Number min && list.size() < min.doubleValue()) {
            return false;
        }
        if (s.get("maxItems") instanceof Number max && list.size() > max.doubleValue()) {
            return false;
        }
        if (Boolean.TRUE.equals(s.get("uniqueItems"))) {
            for (int i = 0; i < list.size(); i++) {
                for (int j = i + 1; j < list.size(); j++) {
                    check.spend(1);
                    if (JsonValues.equal(list.get(i), list.get(j))) {
                        return false;
                    }
                }
            }
        }
        return !s.containsKey("items")
                || list.stream().allMatch(item -> check.matches(item, s.get("items")));
    }

    static boolean objectMatches(JsonSchemaSubset check, Map<?, ?> object, Map<?, ?> s) {
        if (s.get("minProperties") instanceof Number min && object.size() < min.doubleValue()) {
            return false;
        }
        if (s.get("maxProperties") instanceof Number max && object.size() > max.doubleValue()) {
            return false;
        }
        if (s.get("required") instanceof List<?> required && !object.keySet().containsAll(required)) {
            return false;
        }
        Map<?, ?> properties = s.get("properties") instanceof Map<?, ?> p ? p : Map.of();
        Object additional = s.get("additionalProperties");
        for (Map.Entry<?, ?> entry : object.entrySet()) {
            Object schema = properties.containsKey(entry.getKey()) ? properties.get(entry.getKey()) : additional;
            if (schema != null && !check.matches(entry.getValue(), schema)) {
                return false;
            }
        }
        return true;
    }
}
