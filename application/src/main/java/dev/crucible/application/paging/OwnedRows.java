package dev.crucible.application.paging;

import dev.crucible.domain.paging.Page;
import dev.crucible.domain.paging.PageRequest;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.kernel.refusal.Outcome;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

/**
 * A store whose rows (of type {@code T}, with ids of type {@code I}) each belong to one entity, which alone may read
 * them, and which lists an entity's rows a keyset page at a time.
 */
public interface OwnedRows<T, I> {

    /** The entity's row {@code id}; empty when it does not exist or belongs to another entity. */
    Optional<T> find(EntityName entity, I id);

    /**
     * Up to {@code page.fetchSize()} of the entity's rows in the store's order ({@code page.order()}), starting after
     * {@code after} (one of them, as read from this store) when given.
     */
    List<T> fetchPage(EntityName entity, PageRequest page, Optional<T> after);

    /**
     * One page of {@code caller}'s rows: {@code page}'s cursor must be one of them (the refusal calls them
     * {@code what}), and one row more than the page is fetched to learn whether more exist.
     */
    default Outcome<Page<T>> page(Caller caller, PageRequest page, Function<UUID, I> id, String what) {
        EntityName entity = caller.entity();
        return page.list(cursor -> find(entity, id.apply(cursor)), what, after -> fetchPage(entity, page, after));
    }
}
