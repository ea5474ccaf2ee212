package dev.crucible.adapters.http.paging;

import dev.crucible.domain.paging.PageRequest;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.annotation.QueryValue;

/**
 * The paging query every cursor-paged list route reads, each part optional ({@code @RequestBean}): {@code after},
 * the last id of the page before; {@code limit}; {@code order}, asc or desc.
 */
@Introspected
public record PageQuery(@Nullable @QueryValue String after, @Nullable @QueryValue String limit,
        @Nullable @QueryValue String order) {

    /** The page asked for, or a 400 naming the part that is not one ({@link RequestParams#page}). */
    public PageRequest page() {
        return RequestParams.page(after, limit, order);
    }
}
