package dev.crucible.application.feedback;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.feedback.Feedback;
import dev.crucible.domain.feedback.FeedbackId;
import dev.crucible.domain.feedback.FeedbackQuery;
import dev.crucible.domain.feedback.ProjectId;
import java.util.List;
import java.util.Map;

/**
 * Where feedback rows are kept. Every method is scoped to one project: no call reads or changes another
 * project's rows. Implementations are thread-safe; infrastructure failures surface as unchecked exceptions.
 * Arguments are never null.
 */
public interface FeedbackStore {

    /**
     * Stores {@code row}. Refused with {@link dev.crucible.kernel.refusal.Refusal.Reason#CONFLICT} (param
     * {@code id}) when the row's project already has a row with the same id; nothing is stored then.
     */
    Outcome<Feedback> insert(Feedback row);

    /**
     * In one transaction: deletes the row {@code toDelete} of {@code project} if there is one (none is fine), then
     * inserts {@code newRow} (whose project is {@code project}). The same conflict rule as {@link #insert} applies
     * after the delete, so {@code newRow} may reuse {@code toDelete}'s id; when refused, nothing changes.
     */
    Outcome<Feedback> replace(ProjectId project, FeedbackId toDelete, Feedback newRow);

    /**
     * The rows of {@code query.project()} that match its filter, in its order, limited and offset as it says.
     * Each row is a map in Weave's row shape with the spec's names (see {@link Feedback#toRow()}) holding only
     * {@code query.fields()} when that is not empty, keyed by
     * {@link dev.crucible.domain.feedback.FeedbackField#name()}:
     * a payload path's value is the extracted JSON value written as a JSON string (null when absent).
     * {@code created_at} is an {@link java.time.Instant}; {@code payload} a JSON-shaped map. Comparisons with a
     * payload path compare a boolean, integer or float literal with the JSON value of that type. Refused as
     * {@link dev.crucible.kernel.refusal.Refusal.Reason#INVALID} (param {@code query}) when the filter would make
     * more work than the store allows (its SQL too large), naming the setting that says how much.
     */
    Outcome<List<Map<String, Object>>> query(FeedbackQuery query);

    /** Deletes the rows of {@code project} with these ids; ids with no row are ignored. Returns how many went. */
    int purge(ProjectId project, List<FeedbackId> ids);
}
