package dev.crucible.application.feedback;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.feedback.FeedbackId;
import java.util.List;

/** Deletes feedback rows by id in a project of the caller's entity. */
public record PurgeFeedbackService(FeedbackStore store) implements PurgeFeedbackUseCase {

    @Override
    public Outcome<Integer> purge(PurgeFeedbackCommand command) {
        return command.purge().project().reachableBy(command.caller())
                .map(project -> {
                    List<FeedbackId> ids = command.purge().rowIds();
                    return ids.isEmpty() ? 0 : store.purge(project, ids);
                });
    }
}
