package dev.crucible.domain.usage;

import dev.crucible.kernel.wire.WireName;
import java.util.Optional;

/**
 * What usage can be grouped by ({@code group_by}); its wire name is its name in lower case. {@code batch} is always
 * {@code false}: Crucible has no batch API, so every completion is a non-batch one.
 */
public enum UsageField implements WireName {
    PROJECT_ID,
    MODEL,
    API_KEY_ID,
    BATCH;

    /** The field written {@code text}, if it is one. */
    public static Optional<UsageField> of(String text) {
        return WireName.find(values(), text);
    }
}
