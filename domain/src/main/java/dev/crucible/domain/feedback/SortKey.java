package dev.crucible.domain.feedback;

import dev.crucible.domain.paging.SortOrder;
import java.util.Objects;

/** One {@code sort_by} entry of a feedback query. */
public record SortKey(FeedbackField field, SortOrder direction) {

    public SortKey {
        Objects.requireNonNull(field, "field");
        Objects.requireNonNull(direction, "direction");
    }
}
