package dev.crucible.application.feedback;

import dev.crucible.kernel.refusal.Outcome;
import java.util.List;
import java.util.Map;

/** Reads feedback rows of a project of the caller's entity. */
public record QueryFeedbackService(FeedbackStore store) implements QueryFeedbackUseCase {

    @Override
    public Outcome<List<Map<String, Object>>> query(QueryFeedbackCommand command) {
        return command.query().project().reachableBy(command.caller())
                .then(project -> store.query(command.query()));
    }
}
