package dev.crucible.domain.feedback;

import java.util.Objects;

/**
 * A replace request: delete the row {@code feedbackId} of the draft's project, then store the draft.
 *
 * @param feedbackId the id of the row to delete, as sent; a row need not exist, nor the id be a UUID
 * @param draft the replacement
 */
public record FeedbackReplacement(String feedbackId, FeedbackDraft draft) {

    public FeedbackReplacement {
        Objects.requireNonNull(feedbackId, "feedbackId");
        Objects.requireNonNull(draft, "draft");
    }
}
