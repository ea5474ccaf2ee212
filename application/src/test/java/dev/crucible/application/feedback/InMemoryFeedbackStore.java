package dev.crucible.application.feedback;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.feedback.Feedback;
import dev.crucible.domain.feedback.FeedbackId;
import dev.crucible.domain.feedback.FeedbackQuery;
import dev.crucible.domain.feedback.ProjectId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A feedback store in a map, keyed by project and id; query ignores the filter and records what it was asked. */
final class InMemoryFeedbackStore implements FeedbackStore {

    private record Key(ProjectId project, FeedbackId id) {
    }

    private final Map<Key, Feedback> rows = new LinkedHashMap<>();
    final List<FeedbackQuery> queries = new ArrayList<>();

    @Override
    public synchronized Outcome<Feedback> insert(Feedback row) {
        Key key = new Key(row.project(), row.id());
        if (rows.containsKey(key)) {
            return Outcome.refused(Refusal.conflict("id", "feedback " + row.id() + " already exists"));
        }
        rows.put(key, row);
        return Outcome.done(row);
    }

    @Override
    public synchronized Outcome<Feedback> replace(ProjectId project, FeedbackId toDelete, Feedback newRow) {
        Feedback old = rows.remove(new Key(project, toDelete));
        Outcome<Feedback> inserted = insert(newRow);
        if (inserted instanceof Outcome.Refused<Feedback> && old != null) {
            rows.put(new Key(project, toDelete), old); // roll back, as the transaction would
        }
        return inserted;
    }

    @Override
    public synchronized Outcome<List<Map<String, Object>>> query(FeedbackQuery query) {
        queries.add(query);
        return Outcome.done(rows.values().stream().filter(r -> r.project().equals(query.project()))
                .map(Feedback::toRow).toList());
    }

    @Override
    public synchronized int purge(ProjectId project, List<FeedbackId> ids) {
        int removed = 0;
        for (FeedbackId id : ids) {
            removed += rows.remove(new Key(project, id)) == null ? 0 : 1;
        }
        return removed;
    }

    synchronized Optional<Feedback> find(ProjectId project, FeedbackId id) {
        return Optional.ofNullable(rows.get(new Key(project, id)));
    }

    synchronized int size() {
        return rows.size();
    }
}
