package dev.crucible.application.feedback;

import dev.crucible.domain.feedback.Feedback;
import dev.crucible.domain.feedback.FeedbackId;
import dev.crucible.kernel.invariant.NonNull;
import java.time.Instant;
import java.util.Map;

/**
 * What create and replace answer: {@code {id, created_at, svc_user_id, payload}}.
 *
 * @param payload the processed payload as stored (reactions carry their alias fields)
 */
public record FeedbackReceipt(FeedbackId id, Instant createdAt, String svcUserId, Map<String, Object> payload) {

    public FeedbackReceipt {
        NonNull.components(FeedbackReceipt.class, id, createdAt, svcUserId, payload);
    }

    static FeedbackReceipt of(Feedback row) {
        return new FeedbackReceipt(row.id(), row.createdAt(), row.svcUserId(), row.payload());
    }
}
