package dev.crucible.application.feedback;

import dev.crucible.domain.refusal.Outcome;
import java.time.Clock;
import java.util.Objects;

/** Creates feedback: admits the draft, then inserts the row. */
public final class CreateFeedbackService implements CreateFeedbackUseCase {

    private final FeedbackAdmission admission;
    private final FeedbackStore store;

    public CreateFeedbackService(FeedbackStore store, AnnotationSpecLookup specs, AnnotationQueueLookup queues,
            Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.admission = new FeedbackAdmission(specs, queues, clock);
    }

    @Override
    public Outcome<FeedbackReceipt> create(CreateFeedbackCommand command) {
        return admission.admit(command.caller(), command.draft())
                .then(store::insert)
                .map(FeedbackReceipt::of);
    }
}
