package dev.crucible.adapters.http.inference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.crucible.application.inference.chat.ask.ChatRequest;
import dev.crucible.kernel.reading.JsonReader;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.kernel.refusal.RefusalException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Fixtures: chat bodies as the JSON parser hands them over, and assertions on refusals. */
final class ChatBodies {

    private ChatBodies() {
    }

    /** A body with one user message plus {@code keysAndValues}. */
    static Map<String, Object> body(Object... keysAndValues) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("messages", List.of(map("role", "user", "content", "Hi")));
        for (int i = 0; i < keysAndValues.length; i += 2) {
            body.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return body;
    }

    /** An ordered map that may hold nulls. */
    static Map<String, Object> map(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    static ChatRequest read(Map<String, Object> body) {
        return ChatRequestReader.read(new JsonReader(body, ""));
    }

    static Refusal refusal(Map<String, Object> body) {
        return assertThrows(RefusalException.class, () -> read(body)).refusal();
    }

    /** Asserts that {@code body} is refused as invalid with exactly {@code message} naming {@code param}. */
    static void refused(Map<String, Object> body, String param, String message) {
        Refusal r = refusal(body);
        assertEquals(Refusal.Reason.INVALID, r.reason());
        assertEquals(message, r.message());
        assertEquals(param, r.param());
    }

    /** Asserts a schema refusal naming {@code param} whose message holds each of {@code parts}. */
    static void schemaRefused(Map<String, Object> body, String param, String... parts) {
        Refusal r = refusal(body);
        assertEquals(param, r.param());
        for (String part : parts) {
            if (!r.message().contains(part)) {
                throw new AssertionError("expected '" + part + "' in: " + r.message());
            }
        }
    }
}
