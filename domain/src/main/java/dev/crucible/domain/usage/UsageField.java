package dev.crucible.domain.usage;

import java.util.Arrays;
import java.util.Optional;

/**
 * What usage can be grouped by ({@code group_by}), with its wire name. {@code batch} is always {@code false}:
 * Crucible has no batch API, so every completion is a non-batch one.
 */
public enum UsageField {
    PROJECT_ID("project_id"),
    MODEL("model"),
    API_KEY_ID("api_key_id"),
    BATCH("batch");

    private final String wireName;

    UsageField(String wireName) {
        this.wireName = wireName;
    }

    /** The field written {@code text}, if it is one. */
    public static Optional<UsageField> of(String text) {
        return Arrays.stream(values()).filter(field -> field.wireName.equals(text)).findFirst();
    }

    public String wireName() {
        return wireName;
    }
}
