package dev.crucible.domain.feedback;

import dev.crucible.kernel.invariant.NonNull;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A stored feedback row. Built only from a draft that passed every rule, with the processed payload.
 *
 * @param svcUserId the user id of the caller that wrote the row, never a client-sent value
 * @param createdAt when the row was written (a replace writes a new time)
 * @param payload the processed payload (reactions gain their alias fields)
 */
public record Feedback(
        FeedbackId id,
        ProjectId project,
        String svcRef,
        String svcUserId,
        Optional<String> creator,
        Instant createdAt,
        String feedbackType,
        Map<String, Object> payload,
        Optional<String> annotationRef,
        Optional<String> runnableRef,
        Optional<String> callRef,
        Optional<String> triggerRef,
        Optional<String> queueId) {

    public Feedback {
        NonNull.components(Feedback.class, id, project, svcRef, svcUserId, creator, createdAt, feedbackType, payload,
                annotationRef, runnableRef, callRef, triggerRef, queueId);
        payload = Collections.unmodifiableMap(new LinkedHashMap<>(payload));
    }

    /**
     * The row for a validated draft: the draft's id or {@code generatedId}, written by {@code svcUserId} at
     * {@code now}, holding {@code processedPayload}.
     */
    public static Feedback fromDraft(FeedbackDraft draft, Map<String, Object> processedPayload, String svcUserId,
            Instant now, FeedbackId generatedId) {
        return new Feedback(draft.id().orElse(generatedId), draft.project(), draft.svcRef(), svcUserId,
                draft.creator(), now, draft.feedbackType(), processedPayload, draft.annotationRef(),
                draft.runnableRef(), draft.callRef(), draft.triggerRef(), draft.queueId());
    }

    /**
     * The row in Weave's query shape with the spec's names: {@code id}, {@code project_id}, {@code svc_ref},
     * {@code svc_user_id}, {@code creator}, {@code created_at} (an {@link Instant}), {@code feedback_type},
     * {@code payload}, {@code annotation_ref}, {@code runnable_ref}, {@code call_ref}, {@code trigger_ref},
     * {@code queue_id}; absent optionals are null.
     */
    public Map<String, Object> toRow() {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put(FeedbackColumn.ID.wireName(), id.toString());
        row.put(FeedbackColumn.PROJECT_ID.wireName(), project.toString());
        row.put(FeedbackColumn.SVC_REF.wireName(), svcRef);
        row.put(FeedbackColumn.SVC_USER_ID.wireName(), svcUserId);
        row.put(FeedbackColumn.CREATOR.wireName(), creator.orElse(null));
        row.put(FeedbackColumn.CREATED_AT.wireName(), createdAt);
        row.put(FeedbackColumn.FEEDBACK_TYPE.wireName(), feedbackType);
        row.put(FeedbackColumn.PAYLOAD.wireName(), payload);
        row.put(FeedbackColumn.ANNOTATION_REF.wireName(), annotationRef.orElse(null));
        row.put(FeedbackColumn.RUNNABLE_REF.wireName(), runnableRef.orElse(null));
        row.put(FeedbackColumn.CALL_REF.wireName(), callRef.orElse(null));
        row.put(FeedbackColumn.TRIGGER_REF.wireName(), triggerRef.orElse(null));
        row.put(FeedbackColumn.QUEUE_ID.wireName(), queueId.orElse(null));
        return Collections.unmodifiableMap(row);
    }
}
