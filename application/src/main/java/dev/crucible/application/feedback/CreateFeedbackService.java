package dev.crucible.application.feedback;

import dev.crucible.kernel.refusal.Outcome;

/** Creates feedback: admits the draft, then inserts the row. */
public record CreateFeedbackService(FeedbackStore store, FeedbackAdmission admission) implements CreateFeedbackUseCase {

    @Override
    public Outcome<FeedbackReceipt> create(CreateFeedbackCommand command) {
        return admission.admit(command.caller(), command.draft())
                .then(store::insert)
                .map(FeedbackReceipt::of);
    }
}
