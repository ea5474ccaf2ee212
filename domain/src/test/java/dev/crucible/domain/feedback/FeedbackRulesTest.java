package dev.crucible.domain.feedback;

import static dev.crucible.domain.feedback.Drafts.ANNOTATION_REF;
import static dev.crucible.domain.feedback.Drafts.CALL_REF;
import static dev.crucible.domain.feedback.Drafts.PROJECT;
import static dev.crucible.domain.feedback.Drafts.RUNNABLE_OBJECT_REF;
import static dev.crucible.domain.feedback.Drafts.RUNNABLE_OP_REF;
import static dev.crucible.domain.feedback.Drafts.SVC_REF;
import static dev.crucible.domain.feedback.Drafts.TRIGGER_REF;
import static dev.crucible.domain.feedback.Drafts.annotation;
import static dev.crucible.domain.feedback.Drafts.draft;
import static dev.crucible.domain.feedback.Drafts.refusal;
import static dev.crucible.domain.feedback.Drafts.runnable;
import static dev.crucible.domain.feedback.Drafts.withRefs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FeedbackRulesTest {

    private static void assertRefused(FeedbackDraft draft, String param, String message) {
        Refusal refusal = refusal(FeedbackRules.checkTypeAndRefs(draft));
        assertEquals(Refusal.Reason.INVALID, refusal.reason());
        assertEquals(message, refusal.message());
        assertEquals(param, refusal.param());
    }

    private static void assertAccepted(FeedbackDraft draft) {
        assertInstanceOf(Outcome.Done.class, FeedbackRules.checkTypeAndRefs(draft));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "weave:///onlyentity | Invalid ref: weave:///onlyentity, Invalid URI: weave:///onlyentity. Must have at least 3 parts",
        "weave:///acme/chat | Invalid ref: weave:///acme/chat, Invalid URI: weave:///acme/chat. Must have at least 3 parts",
        "weave:///acme/chat/thing/x:1 | Invalid ref: weave:///acme/chat/thing/x:1, Unknown ref kind: thing",
        "weave:///acme/chat/object/answer | Invalid ref: weave:///acme/chat/object/answer, not enough values to unpack (expected 2, got 1)",
        "answer | Invalid ref: answer, Invalid URI: answer. Must start with <scheme>:///"})
    void theRefTheFeedbackIsAboutMustParseAsWeaveParsesRefs(String ref, String message) {
        assertRefused(FeedbackDraft.of(PROJECT, ref, "custom", Map.of()), "svc_ref", message);
    }

    @Test
    void everyKindOfRefMayBeWhatTheFeedbackIsAbout() {
        for (String ref : List.of(SVC_REF, RUNNABLE_OP_REF, CALL_REF, "weave:///acme/chat/table/abc",
                "weave:///acme/chat/object/answer:abc/key/a/index/0")) {
            assertAccepted(FeedbackDraft.of(PROJECT, ref, "custom", Map.of()));
        }
    }

    @Test
    void acceptsCustomFeedbackWithAnyPayload() {
        assertAccepted(draft("custom", Map.of("anything", 1)));
        assertAccepted(draft("wandb.trying_to_use_reserved_prefix", Map.of()));
    }

    @Test
    void rule2RefusesReactionWithoutEmoji() {
        assertRefused(draft("wandb.reaction.1", Map.of()), "payload", "Invalid payload for feedback_type "
                + "wandb.reaction.1: 1 validation error for FeedbackPayloadReactionReq\nemoji\n  Field required "
                + "[type=missing]");
    }

    @Test
    void rule2RefusesReactionEmojiThatIsNotAString() {
        assertRefused(draft("wandb.reaction.1", Map.of("emoji", 1L)), "payload", "Invalid payload for feedback_type "
                + "wandb.reaction.1: 1 validation error for FeedbackPayloadReactionReq\nemoji\n  Input should be a "
                + "valid string [type=string_type]");
    }

    @Test
    void rule2RefusesEmptyNote() {
        assertRefused(draft("wandb.note.1", Map.of("note", "")), "payload", "Invalid payload for feedback_type "
                + "wandb.note.1: 1 validation error for FeedbackPayloadNoteReq\nnote\n  String should have at least 1 "
                + "character [type=string_too_short]");
    }

    @Test
    void rule2CountsNoteLengthInCodePoints() {
        assertAccepted(draft("wandb.note.1", Map.of("note", "😀".repeat(1024))));
        assertRefused(draft("wandb.note.1", Map.of("note", "a".repeat(1025))), "payload", "Invalid payload for "
                + "feedback_type wandb.note.1: 1 validation error for FeedbackPayloadNoteReq\nnote\n  String should "
                + "have at most 1024 characters [type=string_too_long]");
    }

    @Test
    void rule2RefusesMissingNote() {
        assertRefused(draft("wandb.note.1", Map.of("text", "hi")), "payload", "Invalid payload for feedback_type "
                + "wandb.note.1: 1 validation error for FeedbackPayloadNoteReq\nnote\n  Field required [type=missing]");
    }

    @Test
    void rule3aRefusesAnnotationTypeWithoutDot() {
        assertRefused(annotation("wandb.annotationX", ANNOTATION_REF, Map.of("value", 1)), "feedback_type",
                "Invalid annotation feedback type: wandb.annotationX");
    }

    @Test
    void rule3bRequiresAnnotationRefAndTreatsEmptyAsMissing() {
        String message = "annotation_ref is required for annotation feedback";
        assertRefused(draft("wandb.annotation.quality", Map.of("value", 1)), "annotation_ref", message);
        assertRefused(annotation("wandb.annotation.quality", "", Map.of("value", 1)), "annotation_ref", message);
    }

    @Test
    void rule3cRefusesUnparsableAndNonObjectAnnotationRefs() {
        String noDigest = "weave:///acme/chat/object/quality";
        assertRefused(annotation("wandb.annotation.quality", noDigest, Map.of("value", 1)), "annotation_ref",
                "Invalid ref: " + noDigest + ", not enough values to unpack (expected 2, got 1)");
        assertRefused(annotation("wandb.annotation.quality", CALL_REF, Map.of("value", 1)), "annotation_ref",
                "Invalid ref: " + CALL_REF + ", expected an object ref");
    }

    @Test
    void rule3cAcceptsOpRefAsAnObject() {
        assertAccepted(annotation("wandb.annotation.judge", RUNNABLE_OP_REF, Map.of("value", 1)));
    }

    @Test
    void rule3dRequiresRefNameToMatchType() {
        assertRefused(annotation("wandb.annotation.other", ANNOTATION_REF, Map.of("value", 1)), "annotation_ref",
                "annotation_ref must point to an object with name other");
    }

    @Test
    void rule3eRequiresValueKey() {
        assertRefused(annotation("wandb.annotation.quality", ANNOTATION_REF, Map.of("score", 1)), "payload",
                "Invalid payload for feedback_type wandb.annotation.quality: 1 validation error for "
                        + "AnnotationPayloadSchema\nvalue\n  Field required [type=missing]");
    }

    @Test
    void rule4RefusesAnnotationRefOnOtherTypes() {
        assertRefused(annotation("custom", ANNOTATION_REF, Map.of()), "annotation_ref",
                "annotation_ref is not allowed for non-annotation feedback");
    }

    @Test
    void rule5aRefusesRunnableTypeWithoutDot() {
        assertRefused(runnable("wandb.runnableX", RUNNABLE_OBJECT_REF, null, Map.of("output", 1)), "feedback_type",
                "Invalid runnable feedback type: wandb.runnableX");
    }

    @Test
    void rule5bRequiresRunnableRef() {
        assertRefused(draft("wandb.runnable.judge", Map.of("output", 1)), "runnable_ref",
                "runnable_ref is required for runnable feedback");
    }

    @Test
    void rule5cRequiresOpOrObjectRunnableRef() {
        assertRefused(runnable("wandb.runnable.judge", CALL_REF, CALL_REF, Map.of("output", 1)), "runnable_ref",
                "Invalid ref: " + CALL_REF + ", expected an op or object ref");
    }

    @Test
    void rule5dRequiresRunnableNameToMatchType() {
        assertRefused(runnable("wandb.runnable.other", RUNNABLE_OBJECT_REF, null, Map.of("output", 1)), "runnable_ref",
                "runnable_ref must point to an object with name other");
    }

    @Test
    void rule5eRequiresCallRefForOps() {
        assertRefused(runnable("wandb.runnable.judge", RUNNABLE_OP_REF, null, Map.of("output", 1)), "call_ref",
                "call_ref is required for runnable feedback on ops");
        assertAccepted(runnable("wandb.runnable.judge", RUNNABLE_OP_REF, CALL_REF, Map.of("output", 1)));
        assertAccepted(runnable("wandb.runnable.judge", RUNNABLE_OBJECT_REF, null, Map.of("output", 1)));
    }

    @Test
    void rule5fRequiresOutputKey() {
        assertRefused(runnable("wandb.runnable.judge", RUNNABLE_OBJECT_REF, null, Map.of()), "payload",
                "Invalid payload for feedback_type wandb.runnable.judge: 1 validation error for "
                        + "RunnablePayloadSchema\noutput\n  Field required [type=missing]");
    }

    @Test
    void rule6RefusesRunnableRefsOnOtherTypesInOrder() {
        FeedbackDraft custom = draft("custom", Map.of());
        assertRefused(withRefs(custom, null, RUNNABLE_OBJECT_REF, CALL_REF, TRIGGER_REF), "runnable_ref",
                "runnable_ref is not allowed for non-runnable feedback");
        assertRefused(withRefs(custom, null, null, CALL_REF, TRIGGER_REF), "call_ref",
                "call_ref is not allowed for non-runnable feedback");
        assertRefused(withRefs(custom, null, null, null, TRIGGER_REF), "trigger_ref",
                "trigger_ref is not allowed for non-runnable feedback");
    }

    @Test
    void rule7RequiresAnnotationRefInTheSameProject() {
        String elsewhere = "weave:///acme/other/object/quality:v1";
        assertRefused(annotation("wandb.annotation.quality", elsewhere, Map.of("value", 1)), "annotation_ref",
                "Annotation ref " + elsewhere + " does not match project id acme/chat");
    }

    @Test
    void rulesRunInWeaveOrder() {
        // an empty note (rule 2) is reported before the misplaced annotation ref (rule 4)
        assertRefused(annotation("wandb.note.1", ANNOTATION_REF, Map.of("note", "")), "payload",
                "Invalid payload for feedback_type wandb.note.1: 1 validation error for FeedbackPayloadNoteReq\nnote\n"
                        + "  String should have at least 1 character [type=string_too_short]");
    }

    @Test
    void rule10ChecksCallAndTriggerRefFormats() {
        FeedbackDraft badCall = runnable("wandb.runnable.judge", RUNNABLE_OP_REF, TRIGGER_REF, Map.of("output", 1));
        assertAccepted(badCall);
        Refusal refusal = refusal(FeedbackRules.checkRefFormats(badCall));
        assertEquals("call_ref", refusal.param());
        assertEquals("Invalid ref: " + TRIGGER_REF + ", expected a call ref", refusal.message());

        FeedbackDraft badTrigger = withRefs(draft("wandb.runnable.judge", Map.of("output", 1)), null,
                RUNNABLE_OBJECT_REF, null, CALL_REF);
        refusal = refusal(FeedbackRules.checkRefFormats(badTrigger));
        assertEquals("trigger_ref", refusal.param());
        assertEquals("Invalid ref: " + CALL_REF + ", expected an object ref", refusal.message());
    }

    @Test
    void rule10AppliesToRefsThatAnnotationTypesLetThrough() {
        FeedbackDraft draft = withRefs(draft("wandb.annotation.quality", Map.of("value", 1)), ANNOTATION_REF,
                "not a ref", null, null);
        assertAccepted(draft);
        Refusal refusal = refusal(FeedbackRules.checkRefFormats(draft));
        assertEquals("runnable_ref", refusal.param());
        assertEquals("Invalid ref: not a ref, Invalid URI: not a ref. Must start with <scheme>:///", refusal.message());
    }

    @Test
    void rule13RefusesPayloadOverOneMebibyteOfJsonText() {
        // {"note": "<s>"} is 12 characters plus s
        assertInstanceOf(Outcome.Done.class,
                FeedbackRules.checkPayloadSize(Map.of("note", "a".repeat(1024 * 1024 - 12))));
        Refusal refusal = refusal(FeedbackRules.checkPayloadSize(Map.of("note", "a".repeat(1024 * 1024 - 11))));
        assertEquals("Feedback payload too large", refusal.message());
        assertEquals("payload", refusal.param());
    }

    @Test
    void rule13CountsNonAsciiAsEscapes() {
        // each "é" is written \u00e9: 6 characters
        Refusal refusal = refusal(FeedbackRules.checkPayloadSize(Map.of("n", "é".repeat(200_000))));
        assertEquals("Feedback payload too large", refusal.message());
    }

    @Test
    void annotationTargetIsTheParsedRef() {
        FeedbackDraft draft = annotation("wandb.annotation.quality", ANNOTATION_REF, Map.of("value", 1));
        assertEquals("quality", FeedbackRules.annotationTarget(draft).orElseThrow().name());
        assertEquals(java.util.Optional.empty(), FeedbackRules.annotationTarget(draft("custom", Map.of())));
    }
}
