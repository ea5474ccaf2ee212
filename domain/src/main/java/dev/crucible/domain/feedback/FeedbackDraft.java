package dev.crucible.domain.feedback;

import dev.crucible.kernel.invariant.NonNull;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What a create or replace request asks to store, before validation by {@link FeedbackRules}. Optional strings
 * are kept as sent: an empty string is present here and counts as absent in the rules (as Python's truthiness
 * does in Weave).
 *
 * @param id the row id the client chose, or empty for a server-generated one
 * @param project the project the row belongs to
 * @param svcRef the ref to the traced object the feedback is about (not validated, as in Weave)
 * @param feedbackType the type, for example {@code wandb.reaction.1} or {@code custom}
 * @param payload the JSON object as sent; null values are allowed inside it
 */
public record FeedbackDraft(
        Optional<FeedbackId> id,
        ProjectId project,
        String svcRef,
        String feedbackType,
        Map<String, Object> payload,
        Optional<String> creator,
        Optional<String> annotationRef,
        Optional<String> runnableRef,
        Optional<String> callRef,
        Optional<String> triggerRef,
        Optional<String> queueId) {

    public FeedbackDraft {
        NonNull.components(FeedbackDraft.class, id, project, svcRef, feedbackType, payload, creator, annotationRef,
                runnableRef, callRef, triggerRef, queueId);
        payload = Collections.unmodifiableMap(new LinkedHashMap<>(payload));
    }

    /** A draft with only the required fields. */
    public static FeedbackDraft of(ProjectId project, String svcRef, String feedbackType, Map<String, Object> payload) {
        return new FeedbackDraft(Optional.empty(), project, svcRef, feedbackType, payload, Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** The value if present and not empty: the rules treat {@code ""} like an absent ref. */
    static Optional<String> given(Optional<String> value) {
        return value.filter(v -> !v.isEmpty());
    }
}
