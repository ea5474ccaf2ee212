package dev.crucible.domain.dataset;

import dev.crucible.domain.ids.PrefixedHexId;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Identity of a dataset. On the wire it reads {@code dataset-<32 hex digits>}, so that {@code training_data_url}
 * can tell it from a file id ({@code file-...}) and a URL.
 */
public record DatasetId(UUID value) {

    /** The prefix every dataset id carries on the wire. */
    public static final String PREFIX = "dataset-";

    public DatasetId {
        Objects.requireNonNull(value, "value");
    }

    public static DatasetId random() {
        return new DatasetId(UUID.randomUUID());
    }

    /** Parses the wire form; anything else is empty. */
    public static Optional<DatasetId> parse(String text) {
        return PrefixedHexId.parse(PREFIX, text).map(DatasetId::new);
    }

    /** Whether {@code text} is meant as a dataset id (it has the prefix), well-formed or not. */
    public static boolean looksLikeOne(String text) {
        return text != null && text.startsWith(PREFIX);
    }

    @Override
    public String toString() {
        return PrefixedHexId.format(PREFIX, value);
    }
}
