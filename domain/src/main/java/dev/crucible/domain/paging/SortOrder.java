package dev.crucible.domain.paging;

import java.util.Locale;
import java.util.Optional;

/** Direction of a cursor listing. */
public enum SortOrder {
    ASC, DESC;

    /** Parses {@code asc} or {@code desc} (case-insensitive); anything else is empty. */
    public static Optional<SortOrder> parse(String text) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "asc" -> Optional.of(ASC);
            case "desc" -> Optional.of(DESC);
            default -> Optional.empty();
        };
    }
}
