package dev.crucible.application.feedback;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.feedback.Feedback;
import dev.crucible.domain.feedback.FeedbackDraft;
import dev.crucible.domain.feedback.FeedbackId;
import dev.crucible.domain.feedback.FeedbackRules;
import dev.crucible.domain.tenancy.Caller;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * Everything create and replace check before writing, in Weave's order: tenancy, rules 2 to 7, the annotation
 * spec (8, 8b, 9), ref formats (10), the queue (11), reaction processing (12) and payload size (13). The result
 * is the row to write. Create and replace share one; thread-safe.
 */
public final class FeedbackAdmission {

    private final AnnotationSpecCheck specCheck;
    private final AnnotationQueueLookup queues;
    private final Clock clock;

    public FeedbackAdmission(AnnotationSpecLookup specs, JsonSchemaValidator schemas, AnnotationQueueLookup queues,
            Clock clock) {
        this(specs, schemas, queues, clock, SpecLimits.DEFAULTS);
    }

    /** @param limits how large an annotation spec may be, and how much work checking a value against it may take */
    public FeedbackAdmission(AnnotationSpecLookup specs, JsonSchemaValidator schemas, AnnotationQueueLookup queues,
            Clock clock, SpecLimits limits) {
        this.specCheck = new AnnotationSpecCheck(Objects.requireNonNull(specs, "specs"),
                Objects.requireNonNull(schemas, "schemas"), Objects.requireNonNull(limits, "limits"));
        this.queues = Objects.requireNonNull(queues, "queues");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    Outcome<Feedback> admit(Caller caller, FeedbackDraft draft) {
        return draft.project().reachableBy(caller)
                .then(project -> FeedbackRules.checkTypeAndRefs(draft))
                .then(specCheck::check)
                .then(FeedbackRules::checkRefFormats)
                .then(this::checkQueue)
                .then(d -> ReactionPayloads.process(d.feedbackType(), d.payload()))
                .then(FeedbackRules::checkPayloadSize)
                // microseconds: what PostgreSQL keeps, so the answer equals what a later query reads
                .map(payload -> Feedback.fromDraft(draft, payload, caller.userId(),
                        clock.instant().truncatedTo(ChronoUnit.MICROS), FeedbackId.random()));
    }

    /** Rule 11: a named queue must be live in the draft's own project. */
    private Outcome<FeedbackDraft> checkQueue(FeedbackDraft draft) {
        if (draft.queueId().isEmpty() || queues.isLive(draft.project(), draft.queueId().get())) {
            return Outcome.done(draft);
        }
        return Outcome.refused(Refusal.invalid("queue_id",
                "Queue " + draft.queueId().get() + " not found or has been deleted"));
    }
}
