package dev.crucible.domain.completion;

import dev.crucible.domain.paging.PageRequest;
import dev.crucible.domain.paging.SortOrder;
import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.kernel.refusal.Outcome;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One page of an entity's stored completions, in the order they were stored: every filter that is present must
 * match (all metadata pairs, any of the ids).
 *
 * @param entity        whose completions
 * @param project       only this project's (its name within the entity)
 * @param model         only those answered by this model name
 * @param metadata      only those whose metadata holds every one of these pairs
 * @param createdFrom   only those created at or after this
 * @param createdBefore only those created before this
 * @param ids           only these ids; empty for any
 * @param after         the id of the last completion of the previous page (exclusive), or empty for the first page
 * @param limit         completions per page, {@value #MIN_LIMIT} to {@value #MAX_LIMIT}
 * @param order         by storing order
 */
public record StoredCompletionQuery(EntityName entity, Optional<String> project, Optional<String> model,
        Map<String, String> metadata, Optional<Instant> createdFrom, Optional<Instant> createdBefore, Set<String> ids,
        Optional<String> after, int limit, SortOrder order) {

    public static final int MIN_LIMIT = 1;
    /** The HTTP route's bound; readers inside the server (datasets) may ask for more per page. */
    public static final int MAX_LIMIT = 1000;

    public StoredCompletionQuery {
        Objects.requireNonNull(entity, "entity");
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(model, "model");
        metadata = Map.copyOf(metadata);
        Objects.requireNonNull(createdFrom, "createdFrom");
        Objects.requireNonNull(createdBefore, "createdBefore");
        ids = Set.copyOf(ids);
        Objects.requireNonNull(after, "after");
        Objects.requireNonNull(order, "order");
        if (limit < MIN_LIMIT || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIMIT + ", got " + limit);
        }
    }

    /** The first page of all of {@code entity}'s completions, oldest first, {@code limit} at a time. */
    public static StoredCompletionQuery all(EntityName entity, int limit) {
        return new StoredCompletionQuery(entity, Optional.empty(), Optional.empty(), Map.of(), Optional.empty(),
                Optional.empty(), Set.of(), Optional.empty(), limit, SortOrder.ASC);
    }

    /** The route's query: {@code model}, {@code metadata} pairs and a page; a limit outside 1..100 is refused. */
    public static Outcome<StoredCompletionQuery> ofRoute(EntityName entity, Optional<String> model,
            Map<String, String> metadata, Optional<String> after, int limit, SortOrder order) {
        return PageRequest.limit(limit).map(checked -> new StoredCompletionQuery(entity, Optional.empty(), model,
                metadata, Optional.empty(), Optional.empty(), Set.of(), after, checked, order));
    }

    /** This query from another page's cursor. */
    public StoredCompletionQuery after(String id) {
        return new StoredCompletionQuery(entity, project, model, metadata, createdFrom, createdBefore, ids,
                Optional.of(id), limit, order);
    }

    /** How many rows to fetch so that one extra row tells whether more exist. */
    public int fetchSize() {
        return limit + 1;
    }
}
