package dev.crucible.domain.ids;

import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/** An id on the wire as a bare UUID in its canonical 8-4-4-4-12 form, as feedback and reward-model ids are. */
public final class CanonicalUuid {

    private static final Pattern CANONICAL = Pattern.compile(
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    private CanonicalUuid() {
    }

    /**
     * The UUID {@code text} writes in the canonical hexadecimal form (either case); empty for anything else,
     * including the short and signed forms {@link UUID#fromString} would accept.
     */
    public static Optional<UUID> parse(String text) {
        if (text == null || !CANONICAL.matcher(text).matches()) {
            return Optional.empty();
        }
        return Optional.of(UUID.fromString(text.toLowerCase(Locale.ROOT)));
    }
}
