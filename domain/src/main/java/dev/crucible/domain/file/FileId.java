package dev.crucible.domain.file;

import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Identity of an uploaded file. On the wire it reads {@code file-<32 hex digits>}, the shape OpenAI's file ids
 * have (a {@code file-} prefix), so that SDKs and {@code training_data_url} can pass it around as a string.
 */
public record FileId(UUID value) {

    /** The prefix every file id carries on the wire. */
    public static final String PREFIX = "file-";
    private static final Pattern WIRE = Pattern.compile("file-[0-9a-f]{32}");

    public FileId {
        Objects.requireNonNull(value, "value");
    }

    public static FileId random() {
        return new FileId(UUID.randomUUID());
    }

    /** Parses the wire form; anything else (another prefix, upper-case hex, a wrong length) is empty. */
    public static Optional<FileId> parse(String text) {
        if (text == null || !WIRE.matcher(text).matches()) {
            return Optional.empty();
        }
        String hex = text.substring(PREFIX.length());
        long high = HexFormat.fromHexDigitsToLong(hex, 0, 16);
        long low = HexFormat.fromHexDigitsToLong(hex, 16, 32);
        return Optional.of(new FileId(new UUID(high, low)));
    }

    /** Whether {@code text} is meant as a file id (it has the prefix), well-formed or not. */
    public static boolean looksLikeOne(String text) {
        return text != null && text.startsWith(PREFIX);
    }

    @Override
    public String toString() {
        HexFormat hex = HexFormat.of();
        return PREFIX + hex.toHexDigits(value.getMostSignificantBits()) + hex.toHexDigits(value.getLeastSignificantBits());
    }
}
