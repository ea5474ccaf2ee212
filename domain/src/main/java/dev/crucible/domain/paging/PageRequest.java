package dev.crucible.domain.paging;

import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.kernel.refusal.Outcome;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

/**
 * One page of a cursor listing: the id after which to start (exclusive), how many items, which way.
 *
 * @param after the id of the last item of the previous page, or empty for the first page
 * @param limit number of items, {@value #MIN_LIMIT} to {@value #MAX_LIMIT}
 * @param order listing direction
 */
public record PageRequest(Optional<UUID> after, int limit, SortOrder order) {

    public static final int MIN_LIMIT = 1;
    public static final int MAX_LIMIT = 100;
    public static final int DEFAULT_LIMIT = 20;

    public PageRequest {
        Objects.requireNonNull(after, "after");
        Objects.requireNonNull(order, "order");
        if (limit < MIN_LIMIT || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be between 1 and 100, got " + limit);
        }
    }

    /** Builds a request, refusing a limit outside 1..100 as a value naming {@code limit}. */
    public static Outcome<PageRequest> of(Optional<UUID> after, int limit, SortOrder order) {
        return limit(limit).map(checked -> new PageRequest(after, checked, order));
    }

    /**
     * A page size as every listing route takes it ({@value #MIN_LIMIT} to {@value #MAX_LIMIT}, OpenAI's bounds), also
     * where the page is not one of these requests (stored completions and their messages); any other is refused as
     * a value naming {@code limit}.
     */
    public static Outcome<Integer> limit(int limit) {
        if (limit < MIN_LIMIT || limit > MAX_LIMIT) {
            return Outcome.refused(Refusal.invalid("limit",
                    "limit must be between " + MIN_LIMIT + " and " + MAX_LIMIT + ", got " + limit));
        }
        return Outcome.done(limit);
    }

    /**
     * The item {@code after} names, looked up with {@code find} among the caller's own; refused as invalid
     * ({@code after}) when it names none of them. Empty on a first page.
     *
     * @param what what the items are, for the refusal: "one of your {@code what}"
     */
    public <T> Outcome<Optional<T>> cursor(Function<UUID, Optional<T>> find, String what) {
        if (after.isEmpty()) {
            return Outcome.done(Optional.empty());
        }
        Optional<T> found = find.apply(after.get());
        return found.isPresent() ? Outcome.done(found)
                : Outcome.refused(Refusal.invalid("after", "after '" + after.get() + "' is not one of your " + what));
    }

    /**
     * One page of the caller's items: the cursor resolved as {@link #cursor} does, then {@code fetch} given it,
     * which reads {@link #fetchSize()} rows from there so that the one past the page tells whether more exist.
     */
    public <C, T> Outcome<Page<T>> list(Function<UUID, Optional<C>> find, String what,
            Function<Optional<C>, List<T>> fetch) {
        return cursor(find, what).map(after -> Page.fromFetch(fetch.apply(after), this));
    }

    /** How many rows to fetch so that one extra row tells whether more exist. */
    public int fetchSize() {
        return limit + 1;
    }
}
