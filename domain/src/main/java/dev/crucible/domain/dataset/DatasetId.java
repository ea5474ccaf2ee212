package dev.crucible.domain.dataset;

import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Identity of a dataset. On the wire it reads {@code dataset-<32 hex digits>}, so that {@code training_data_url}
 * can tell it from a file id ({@code file-...}) and a URL.
 */
public record DatasetId(UUID value) {

    /** The prefix every dataset id carries on the wire. */
    public static final String PREFIX = "dataset-";
    private static final Pattern WIRE = Pattern.compile("dataset-[0-9a-f]{32}");

    public DatasetId {
        Objects.requireNonNull(value, "value");
    }

    public static DatasetId random() {
        return new DatasetId(UUID.randomUUID());
    }

    /** Parses the wire form; anything else is empty. */
    public static Optional<DatasetId> parse(String text) {
        if (text == null || !WIRE.matcher(text).matches()) {
            return Optional.empty();
        }
        String hex = text.substring(PREFIX.length());
        return Optional.of(new DatasetId(new UUID(HexFormat.fromHexDigitsToLong(hex, 0, 16),
                HexFormat.fromHexDigitsToLong(hex, 16, 32))));
    }

    /** Whether {@code text} is meant as a dataset id (it has the prefix), well-formed or not. */
    public static boolean looksLikeOne(String text) {
        return text != null && text.startsWith(PREFIX);
    }

    @Override
    public String toString() {
        HexFormat hex = HexFormat.of();
        return PREFIX + hex.toHexDigits(value.getMostSignificantBits()) + hex.toHexDigits(value.getLeastSignificantBits());
    }
}
