package dev.crucible.application.feedback;

import dev.crucible.kernel.refusal.Outcome;

/**
 * {@code POST /feedback/replace}: validates the replacement first, then deletes the old row and inserts the new one
 * in one transaction. The old row need not exist; the new row gets the draft's id or a new one, a new
 * {@code created_at} and the caller as {@code svc_user_id}. A refused replace leaves the old row as it was.
 */
public interface ReplaceFeedbackUseCase {

    Outcome<FeedbackReceipt> replace(ReplaceFeedbackCommand command);
}
