package dev.crucible.domain.feedback;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/** Identity of a feedback row: a UUID, given by the client or generated here. */
public record FeedbackId(UUID value) {

    private static final Pattern CANONICAL = Pattern.compile(
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    public FeedbackId {
        Objects.requireNonNull(value, "value");
    }

    /** A new random id. */
    public static FeedbackId random() {
        return new FeedbackId(UUID.randomUUID());
    }

    /**
     * Parses the canonical 8-4-4-4-12 hexadecimal form (either case); empty for anything else, including the
     * short forms {@link UUID#fromString} would accept.
     */
    public static Optional<FeedbackId> parse(String text) {
        if (text == null || !CANONICAL.matcher(text).matches()) {
            return Optional.empty();
        }
        return Optional.of(new FeedbackId(UUID.fromString(text.toLowerCase(Locale.ROOT))));
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
