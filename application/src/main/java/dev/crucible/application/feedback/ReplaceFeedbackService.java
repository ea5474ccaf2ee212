package dev.crucible.application.feedback;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.feedback.Feedback;
import dev.crucible.domain.feedback.FeedbackId;
import java.util.Optional;

/**
 * Replaces feedback: admits the replacement first (so a refusal leaves the old row), then deletes and inserts in
 * one store transaction. A {@code feedback_id} that is not a UUID names no row (every stored id is one), so the
 * replace is then a plain insert.
 */
public record ReplaceFeedbackService(FeedbackStore store, FeedbackAdmission admission)
        implements ReplaceFeedbackUseCase {

    @Override
    public Outcome<FeedbackReceipt> replace(ReplaceFeedbackCommand command) {
        return admission.admit(command.caller(), command.draft())
                .then(row -> write(FeedbackId.parse(command.feedbackId()), row))
                .map(FeedbackReceipt::of);
    }

    private Outcome<Feedback> write(Optional<FeedbackId> toDelete, Feedback row) {
        return toDelete.map(id -> store.replace(row.project(), id, row)).orElseGet(() -> store.insert(row));
    }
}
