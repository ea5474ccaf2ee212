package dev.crucible.domain.trajectory;

import java.util.Map;
import java.util.Objects;

/**
 * One element of {@code messages_and_choices}: either a chat message (has {@code role}) or a sampled choice
 * (has {@code message} and no {@code role}), kept as the JSON object the client sent.
 */
public record HistoryItem(Map<String, Object> json) {

    public HistoryItem {
        Objects.requireNonNull(json, "json");
        if (!isChoice(json) && !json.containsKey("role")) {
            throw new IllegalArgumentException("a history item is a message (with role) or a choice (with message)");
        }
    }

    /** True when the object is a sampled choice: it has {@code message} and no top-level {@code role}. */
    public static boolean isChoice(Map<String, Object> json) {
        return json.containsKey("message") && !json.containsKey("role");
    }

    public boolean isChoice() {
        return isChoice(json);
    }
}
