package dev.crucible.application.feedback;

import dev.crucible.domain.refusal.Outcome;
import dev.crucible.domain.feedback.FeedbackId;
import java.util.List;
import java.util.Objects;

/** Deletes feedback rows by id in a project of the caller's entity. */
public final class PurgeFeedbackService implements PurgeFeedbackUseCase {

    private final FeedbackStore store;

    public PurgeFeedbackService(FeedbackStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    @Override
    public Outcome<Integer> purge(PurgeFeedbackCommand command) {
        return command.purge().project().reachableBy(command.caller())
                .map(project -> {
                    List<FeedbackId> ids = command.purge().rowIds();
                    return ids.isEmpty() ? 0 : store.purge(project, ids);
                });
    }
}
