package dev.crucible.adapters.http.feedback;

import java.util.LinkedHashMap;
import java.util.Map;

/** Fixtures: feedback request bodies. */
final class FeedbackBodies {

    private FeedbackBodies() {
    }

    static Map<String, Object> body(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }
}
