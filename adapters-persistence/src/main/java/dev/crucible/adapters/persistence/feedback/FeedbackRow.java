package dev.crucible.adapters.persistence.feedback;

import dev.crucible.adapters.persistence.sql.Json;
import dev.crucible.adapters.persistence.sql.Sql;
import dev.crucible.domain.feedback.Feedback;
import dev.crucible.domain.feedback.FeedbackId;
import dev.crucible.domain.feedback.ProjectId;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/** A row of {@code feedback}; the payload as JSON text. */
record FeedbackRow(String projectId, UUID id, String svcRef, String svcUserId, String creator, Instant createdAt,
        String feedbackType, String payload, String annotationRef, String runnableRef, String callRef,
        String triggerRef, String queueId) {

    static final String COLUMNS = "project_id, id, svc_ref, svc_user_id, creator, created_at, feedback_type, "
            + "payload::text AS payload, annotation_ref, runnable_ref, call_ref, trigger_ref, queue_id";

    static FeedbackRow of(Feedback f, Json json) {
        return new FeedbackRow(f.project().toString(), f.id().value(), f.svcRef(), f.svcUserId(), f.creator().orElse(null),
                f.createdAt(), f.feedbackType(), json.write(f.payload()), f.annotationRef().orElse(null),
                f.runnableRef().orElse(null), f.callRef().orElse(null), f.triggerRef().orElse(null), f.queueId().orElse(null));
    }

    static FeedbackRow read(ResultSet rs) throws SQLException {
        return new FeedbackRow(rs.getString("project_id"), Sql.uuid(rs, "id"), rs.getString("svc_ref"),
                rs.getString("svc_user_id"), rs.getString("creator"), Sql.instant(rs, "created_at"),
                rs.getString("feedback_type"), rs.getString("payload"), rs.getString("annotation_ref"),
                rs.getString("runnable_ref"), rs.getString("call_ref"), rs.getString("trigger_ref"), rs.getString("queue_id"));
    }

    Feedback toDomain(Json json) {
        return new Feedback(new FeedbackId(id), ProjectId.tryParse(projectId).orElseThrow(), svcRef, svcUserId,
                Optional.ofNullable(creator), createdAt, feedbackType, json.readObject(payload),
                Optional.ofNullable(annotationRef), Optional.ofNullable(runnableRef), Optional.ofNullable(callRef),
                Optional.ofNullable(triggerRef), Optional.ofNullable(queueId));
    }
}
