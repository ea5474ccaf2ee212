package dev.crucible.domain.paging;

import java.util.List;
import java.util.Objects;

/**
 * One page of a listing.
 *
 * @param items the page's items, in listing order
 * @param hasMore whether items follow this page in the same direction
 */
public record Page<T>(List<T> items, boolean hasMore) {

    public Page {
        items = List.copyOf(Objects.requireNonNull(items, "items"));
    }

    /**
     * Cuts a fetch of {@link PageRequest#fetchSize()} rows down to the page: the extra row, when present,
     * only says that more exist.
     */
    public static <T> Page<T> fromFetch(List<T> fetched, PageRequest request) {
        boolean more = fetched.size() > request.limit();
        return new Page<>(more ? fetched.subList(0, request.limit()) : fetched, more);
    }
}
