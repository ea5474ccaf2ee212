package dev.crucible.domain.feedback;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A purge of feedback rows by id within one project ({@code /feedback/purge}).
 *
 * @param project the only project whose rows may be deleted
 * @param ids the ids as sent, distinct, in order; never empty. Ids that are not UUIDs match no row.
 */
public record FeedbackPurge(ProjectId project, List<String> ids) {

    public FeedbackPurge {
        Objects.requireNonNull(project, "project");
        ids = List.copyOf(ids.stream().distinct().toList());
        if (ids.isEmpty()) {
            throw new IllegalArgumentException("a purge names at least one id");
        }
    }

    /** The ids that can name a stored row: those in UUID form (every stored id is one). */
    public List<FeedbackId> rowIds() {
        return ids.stream().map(FeedbackId::parse).flatMap(Optional::stream).distinct().toList();
    }
}
