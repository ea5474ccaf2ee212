package dev.crucible.domain.feedback;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A read of feedback rows, always within one project ({@code /feedback/query}).
 *
 * @param project the only project whose rows may match
 * @param fields the fields of each result row, in order; empty means every column
 * @param filter the {@code query.$expr}, or empty for every row of the project
 * @param sortBy the order, first key first; empty means no order (as in Weave)
 * @param limit at most this many rows, or no limit; never negative
 * @param offset rows to skip, or none; never negative
 */
public record FeedbackQuery(
        ProjectId project,
        List<FeedbackField> fields,
        Optional<FeedbackExpr> filter,
        List<SortKey> sortBy,
        OptionalLong limit,
        OptionalLong offset) {

    public FeedbackQuery {
        Objects.requireNonNull(project, "project");
        fields = List.copyOf(fields);
        Objects.requireNonNull(filter, "filter");
        sortBy = List.copyOf(sortBy);
        Objects.requireNonNull(limit, "limit");
        Objects.requireNonNull(offset, "offset");
        if (limit.orElse(0) < 0 || offset.orElse(0) < 0) {
            throw new IllegalArgumentException("limit and offset must be non-negative");
        }
    }
}
