package dev.crucible.application.feedback;

import dev.crucible.domain.feedback.FeedbackDraft;
import dev.crucible.domain.feedback.FeedbackReplacement;
import dev.crucible.domain.tenancy.Caller;
import java.util.Objects;

/**
 * Delete row {@code feedbackId} of the draft's project (if it exists) and store {@code draft} in its place.
 *
 * @param feedbackId the id of the row to delete, as sent; need not name a row
 */
public record ReplaceFeedbackCommand(Caller caller, String feedbackId, FeedbackDraft draft) {

    public ReplaceFeedbackCommand {
        Objects.requireNonNull(caller, "caller");
        Objects.requireNonNull(feedbackId, "feedbackId");
        Objects.requireNonNull(draft, "draft");
    }

    public static ReplaceFeedbackCommand of(Caller caller, FeedbackReplacement replacement) {
        return new ReplaceFeedbackCommand(caller, replacement.feedbackId(), replacement.draft());
    }
}
