package dev.crucible.domain.feedback;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.util.Map;
import java.util.Optional;

/** Fixtures: drafts and bodies for the feedback rules. */
final class Drafts {

    static final ProjectId PROJECT = new ProjectId("acme", "chat");
    static final String SVC_REF = "weave:///acme/chat/object/answer:abc123";
    static final String ANNOTATION_REF = "weave:///acme/chat/object/quality:v1";
    static final String RUNNABLE_OP_REF = "weave:///acme/chat/op/judge:d1";
    static final String RUNNABLE_OBJECT_REF = "weave:///acme/chat/object/judge:d1";
    static final String CALL_REF = "weave:///acme/chat/call/0192-call";
    static final String TRIGGER_REF = "weave:///acme/chat/object/monitor:t1";

    private Drafts() {
    }

    static FeedbackDraft draft(String type, Map<String, Object> payload) {
        return FeedbackDraft.of(PROJECT, SVC_REF, type, payload);
    }

    static FeedbackDraft withRefs(FeedbackDraft d, String annotation, String runnable, String call, String trigger) {
        return new FeedbackDraft(d.id(), d.project(), d.svcRef(), d.feedbackType(), d.payload(), d.creator(),
                Optional.ofNullable(annotation), Optional.ofNullable(runnable), Optional.ofNullable(call),
                Optional.ofNullable(trigger), d.queueId());
    }

    static FeedbackDraft annotation(String type, String ref, Map<String, Object> payload) {
        return withRefs(draft(type, payload), ref, null, null, null);
    }

    static FeedbackDraft runnable(String type, String runnableRef, String callRef, Map<String, Object> payload) {
        return withRefs(draft(type, payload), null, runnableRef, callRef, null);
    }

    static <T> Refusal refusal(Outcome<T> outcome) {
        if (outcome instanceof Outcome.Refused<T> refused) {
            return refused.refusal();
        }
        throw new AssertionError("expected a refusal, got " + outcome);
    }

    static <T> T value(Outcome<T> outcome) {
        if (outcome instanceof Outcome.Done<T> done) {
            return done.value();
        }
        throw new AssertionError("expected a value, got " + outcome);
    }
}
