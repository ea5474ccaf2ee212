package dev.crucible.adapters.http.feedback;

import dev.crucible.domain.refusal.Outcome;
import dev.crucible.domain.refusal.Refusal;
import java.util.LinkedHashMap;
import java.util.Map;

/** Fixtures: feedback request bodies and the outcomes of reading them. */
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

    static <T> Refusal refusal(Outcome<T> outcome) {
        if (outcome instanceof Outcome.Refused<T> refused) {
            return refused.refusal();
        }
        throw new AssertionError("expected a refusal, got " + outcome);
    }

    static <T> T value(Outcome<T> outcome) {
        if (outcome instanceof Outcome.Done<T> done) {
            return done.value();
        }
        throw new AssertionError("expected a value, got " + outcome);
    }
}
