package dev.crucible.domain.reward;

import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/** Identity of one version of a reward model; each version has an id of its own. */
public record RewardModelId(UUID value) {

    public RewardModelId {
        Objects.requireNonNull(value, "value");
    }

    public static RewardModelId random() {
        return new RewardModelId(UUID.randomUUID());
    }

    /** Parses the wire form (a UUID); anything else is empty. */
    public static Optional<RewardModelId> parse(String text) {
        if (text == null || text.length() != 36) {
            return Optional.empty();
        }
        try {
            return Optional.of(new RewardModelId(UUID.fromString(text)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
