package dev.crucible.domain.feedback;

import static dev.crucible.domain.feedback.FeedbackDraft.given;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.kernel.python.PythonJson;
import java.util.Map;
import java.util.Optional;

/**
 * Weave's feedback validations that need no stored data, in Weave's order and with its messages
 * ({@code feedback.py::validate_feedback_create_req}, rules 2 to 7 and 10 of the reference; the spec lookups 8, 8b,
 * 9 and 11 fall between them and belong to the caller) plus the payload-size rule 13 on the processed payload.
 * Each refusal names the field at fault.
 */
public final class FeedbackRules {

    public static final String REACTION_TYPE = "wandb.reaction.1";
    public static final String NOTE_TYPE = "wandb.note.1";
    public static final String ANNOTATION_PREFIX = "wandb.annotation";
    public static final String RUNNABLE_PREFIX = "wandb.runnable";
    /** Weave's {@code CLICKHOUSE_MAX_FEEDBACK_PAYLOAD_SIZE}: 1 MiB of {@code json.dumps} text. */
    public static final long MAX_PAYLOAD_LENGTH = 1024 * 1024;

    private FeedbackRules() {
    }

    /**
     * The ref the feedback is about, then rules 2 to 7: built-in payload shapes, annotation and runnable types with
     * their refs, refs not allowed on other types, and the annotation ref's project. {@code svc_ref} must parse as
     * Weave's ref parser parses a ref (any kind); Weave's trace server only converts it at its boundary, which
     * leaves a ref such as {@code weave:///entity} to fail later, so Crucible refuses it up front.
     */
    public static Outcome<FeedbackDraft> checkTypeAndRefs(FeedbackDraft draft) {
        return TraceRefParser.parse(draft.svcRef(), "svc_ref").then(ref -> builtinPayload(draft))
                .then(FeedbackRules::typeAndRefs).then(FeedbackRules::annotationProject);
    }

    /**
     * Rule 10: {@code runnable_ref} must be an op or object ref, {@code call_ref} a call ref, {@code trigger_ref} an
     * object ref.
     */
    public static Outcome<FeedbackDraft> checkRefFormats(FeedbackDraft draft) {
        Outcome<FeedbackDraft> outcome = Outcome.done(draft);
        if (given(draft.runnableRef()).isPresent()) {
            outcome = outcome.then(d -> named(d.runnableRef().orElseThrow(), "runnable_ref", "an op or object ref")
                    .map(ref -> d));
        }
        if (given(draft.callRef()).isPresent()) {
            outcome = outcome.then(d -> callRef(d.callRef().orElseThrow()).map(ref -> d));
        }
        if (given(draft.triggerRef()).isPresent()) {
            outcome = outcome.then(d -> named(d.triggerRef().orElseThrow(), "trigger_ref", "an object ref")
                    .map(ref -> d));
        }
        return outcome;
    }

    /** Rule 13: the processed payload's {@code json.dumps} text must be at most {@link #MAX_PAYLOAD_LENGTH}. */
    public static Outcome<Map<String, Object>> checkPayloadSize(Map<String, Object> processedPayload) {
        if (PythonJson.DEFAULT.length(processedPayload) > MAX_PAYLOAD_LENGTH) {
            return refuse("payload", "Feedback payload too large");
        }
        return Outcome.done(processedPayload);
    }

    /** The parsed {@code annotation_ref} of a draft, when it has a valid one: the spec to read for rules 8 and 9. */
    public static Optional<NamedRef> annotationTarget(FeedbackDraft draft) {
        return given(draft.annotationRef())
                .flatMap(ref -> named(ref, "annotation_ref", "an object ref") instanceof Outcome.Done<NamedRef> done
                        ? Optional.of(done.value()) : Optional.empty());
    }

    /** Rule 2: the exact types {@code wandb.reaction.1} and {@code wandb.note.1} have fixed payload shapes. */
    private static Outcome<FeedbackDraft> builtinPayload(FeedbackDraft draft) {
        Optional<String> problem = switch (draft.feedbackType()) {
            case REACTION_TYPE -> PayloadSchemas.reactionProblem(draft.payload());
            case NOTE_TYPE -> PayloadSchemas.noteProblem(draft.payload());
            default -> Optional.empty();
        };
        return payloadProblem(draft, problem);
    }

    /** Rules 3 to 6, an if/elif chain in Weave: annotation type, else no annotation ref, else runnable type, ... */
    private static Outcome<FeedbackDraft> typeAndRefs(FeedbackDraft draft) {
        String type = draft.feedbackType();
        if (type.startsWith(ANNOTATION_PREFIX)) {
            return annotation(draft);
        }
        if (given(draft.annotationRef()).isPresent()) {
            return refuse("annotation_ref", "annotation_ref is not allowed for non-annotation feedback");
        }
        if (type.startsWith(RUNNABLE_PREFIX)) {
            return runnable(draft);
        }
        if (given(draft.runnableRef()).isPresent()) {
            return refuse("runnable_ref", "runnable_ref is not allowed for non-runnable feedback");
        }
        if (given(draft.callRef()).isPresent()) {
            return refuse("call_ref", "call_ref is not allowed for non-runnable feedback");
        }
        if (given(draft.triggerRef()).isPresent()) {
            return refuse("trigger_ref", "trigger_ref is not allowed for non-runnable feedback");
        }
        return Outcome.done(draft);
    }

    private static Outcome<FeedbackDraft> annotation(FeedbackDraft draft) {
        return typedRef(draft, ANNOTATION_PREFIX, "annotation", draft.annotationRef(), "an object ref")
                .then(parsed -> payloadProblem(draft,
                        PayloadSchemas.requiredKeyProblem(draft.payload(), "AnnotationPayloadSchema", "value")));
    }

    private static Outcome<FeedbackDraft> runnable(FeedbackDraft draft) {
        return typedRef(draft, RUNNABLE_PREFIX, "runnable", draft.runnableRef(), "an op or object ref")
                .then(parsed -> parsed instanceof OpRef && given(draft.callRef()).isEmpty()
                        ? refuse("call_ref", "call_ref is required for runnable feedback on ops")
                        : payloadProblem(draft,
                                PayloadSchemas.requiredKeyProblem(draft.payload(), "RunnablePayloadSchema", "output")));
    }

    /**
     * The ref a feedback of {@code kind} (its type {@code <prefix>.<name>}) must carry in {@code <kind>_ref}: given,
     * valid, and pointing to an object named {@code <name>}.
     */
    private static Outcome<NamedRef> typedRef(FeedbackDraft draft, String prefix, String kind, Optional<String> value,
            String expected) {
        String param = kind + "_ref";
        String type = draft.feedbackType();
        if (!type.startsWith(prefix + ".")) {
            return refuse("feedback_type", "Invalid " + kind + " feedback type: " + type);
        }
        String subname = type.substring(prefix.length() + 1);
        Optional<String> ref = given(value);
        if (ref.isEmpty()) {
            return refuse(param, param + " is required for " + kind + " feedback");
        }
        return named(ref.get(), param, expected).then(parsed -> parsed.name().equals(subname)
                ? Outcome.done(parsed)
                : refuse(param, param + " must point to an object with name " + subname));
    }

    /** Rule 7: the annotation ref must be in the feedback's own project. */
    private static Outcome<FeedbackDraft> annotationProject(FeedbackDraft draft) {
        Optional<String> ref = given(draft.annotationRef());
        if (ref.isEmpty()) {
            return Outcome.done(draft);
        }
        return named(ref.get(), "annotation_ref", "an object ref").then(parsed -> parsed.project()
                .equals(draft.project())
                ? Outcome.done(draft)
                : refuse("annotation_ref",
                        "Annotation ref " + ref.get() + " does not match project id " + draft.project()));
    }

    /** Weave's {@code ensure_ref_is_valid(ref, (InternalObjectRef,))}: an op ref passes, being an object there. */
    private static Outcome<NamedRef> named(String ref, String param, String expected) {
        return TraceRefParser.parse(ref, param).then(parsed -> parsed instanceof NamedRef named
                ? Outcome.done(named)
                : refuse(param, "Invalid ref: " + ref + ", expected " + expected));
    }

    private static Outcome<CallRef> callRef(String ref) {
        return TraceRefParser.parse(ref, "call_ref").then(parsed -> parsed instanceof CallRef call
                ? Outcome.done(call)
                : refuse("call_ref", "Invalid ref: " + ref + ", expected a call ref"));
    }

    /** The draft, or the payload's {@code problem} refused as Weave words it. */
    private static Outcome<FeedbackDraft> payloadProblem(FeedbackDraft draft, Optional<String> problem) {
        return problem.<Outcome<FeedbackDraft>>map(p -> refuse("payload", "Invalid payload for feedback_type "
                + draft.feedbackType() + ": " + p)).orElseGet(() -> Outcome.done(draft));
    }

    private static <T> Outcome<T> refuse(String param, String message) {
        return Outcome.refused(Refusal.invalid(param, message));
    }
}
