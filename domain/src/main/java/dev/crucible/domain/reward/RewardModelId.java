package dev.crucible.domain.reward;

import dev.crucible.domain.ids.CanonicalUuid;
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

    /** Parses the wire form (a UUID in the canonical 8-4-4-4-12 form, either case); anything else is empty. */
    public static Optional<RewardModelId> parse(String text) {
        return CanonicalUuid.parse(text).map(RewardModelId::new);
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
