package dev.crucible.domain.ids;

import java.util.HexFormat;
import java.util.Optional;
import java.util.UUID;

/**
 * An id on the wire as a prefix and a UUID's 32 lower-case hexadecimal digits, the shape of OpenAI's ids
 * ({@code file-…}), so that SDKs pass it around as a string and {@code training_data_url} tells the kinds apart.
 */
public final class PrefixedHexId {

    private static final int DIGITS = 32;

    private PrefixedHexId() {
    }

    /** The UUID {@code text} writes after {@code prefix}; empty for anything else (upper-case hex, a wrong length). */
    public static Optional<UUID> parse(String prefix, String text) {
        if (text == null || !text.startsWith(prefix) || text.length() != prefix.length() + DIGITS) {
            return Optional.empty();
        }
        for (int i = prefix.length(); i < text.length(); i++) {
            char c = text.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return Optional.empty();
            }
        }
        String hex = text.substring(prefix.length());
        return Optional.of(new UUID(HexFormat.fromHexDigitsToLong(hex, 0, 16),
                HexFormat.fromHexDigitsToLong(hex, 16, DIGITS)));
    }

    /** {@code prefix} and the 32 digits of {@code value}. */
    public static String format(String prefix, UUID value) {
        HexFormat hex = HexFormat.of();
        return prefix + hex.toHexDigits(value.getMostSignificantBits()) + hex.toHexDigits(value.getLeastSignificantBits());
    }
}
