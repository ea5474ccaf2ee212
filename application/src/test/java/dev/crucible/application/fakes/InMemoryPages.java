package dev.crucible.application.fakes;

import dev.crucible.domain.paging.PageRequest;
import dev.crucible.domain.paging.SortOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/** A keyset page over items held oldest first, as the stores' SQL fetches one. */
final class InMemoryPages {

    private InMemoryPages() {
    }

    /** Up to {@code page.fetchSize()} of {@code oldestFirst} in the page's order, after the item with {@code after}'s key. */
    static <T> List<T> fetch(List<T> oldestFirst, PageRequest page, Optional<T> after, Function<T, Object> key) {
        List<T> ordered = new ArrayList<>(oldestFirst);
        if (page.order() == SortOrder.DESC) {
            Collections.reverse(ordered);
        }
        int start = 0;
        if (after.isPresent()) {
            Object cursor = key.apply(after.get());
            while (start < ordered.size() && !key.apply(ordered.get(start)).equals(cursor)) {
                start++;
            }
            start++;
        }
        start = Math.min(start, ordered.size());
        return List.copyOf(ordered.subList(start, Math.min(ordered.size(), start + page.fetchSize())));
    }
}
