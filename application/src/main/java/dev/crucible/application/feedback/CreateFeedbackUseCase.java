package dev.crucible.application.feedback;

import dev.crucible.kernel.refusal.Outcome;

/**
 * {@code POST /feedback/create}: validates a draft as Weave does and stores it. Refused as not found when the
 * project is not the caller's entity's, as invalid when a rule fails, as a conflict when its id is taken.
 */
public interface CreateFeedbackUseCase {

    Outcome<FeedbackReceipt> create(CreateFeedbackCommand command);
}
