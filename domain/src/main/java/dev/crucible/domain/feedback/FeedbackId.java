package dev.crucible.domain.feedback;

import dev.crucible.domain.ids.CanonicalUuid;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/** Identity of a feedback row: a UUID, given by the client or generated here. */
public record FeedbackId(UUID value) {

    public FeedbackId {
        Objects.requireNonNull(value, "value");
    }

    /** A new random id. */
    public static FeedbackId random() {
        return new FeedbackId(UUID.randomUUID());
    }

    /** Parses the canonical 8-4-4-4-12 hexadecimal form (either case); empty for anything else. */
    public static Optional<FeedbackId> parse(String text) {
        return CanonicalUuid.parse(text).map(FeedbackId::new);
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
