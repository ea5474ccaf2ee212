package dev.crucible.application.feedback;

import dev.crucible.domain.refusal.Outcome;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Reads feedback rows of a project of the caller's entity. */
public final class QueryFeedbackService implements QueryFeedbackUseCase {

    private final FeedbackStore store;

    public QueryFeedbackService(FeedbackStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    @Override
    public Outcome<List<Map<String, Object>>> query(QueryFeedbackCommand command) {
        return command.query().project().reachableBy(command.caller())
                .map(project -> store.query(command.query()));
    }
}
