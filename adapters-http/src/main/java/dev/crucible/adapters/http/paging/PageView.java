package dev.crucible.adapters.http.paging;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import java.util.List;
import java.util.function.Function;

/** A cursor page on the wire: {@code {object:"list", data, has_more, first_id, last_id}}. */
@Serdeable(naming = io.micronaut.serde.config.naming.SnakeCaseStrategy.class)
public record PageView<T>(String object, List<T> data, boolean hasMore, @Nullable String firstId,
        @Nullable String lastId) {

    /** Builds the page from domain items, their views and their ids; empty pages have empty-string ids. */
    public static <D, T> PageView<T> of(dev.crucible.domain.paging.Page<D> page, Function<D, T> view, Function<D,
            String> id) {
        List<D> items = page.items();
        return new PageView<>("list", items.stream().map(view).toList(), page.hasMore(),
                items.isEmpty() ? "" : id.apply(items.getFirst()), items.isEmpty() ? "" : id.apply(items.getLast()));
    }
}
