package dev.crucible.application.feedback;

import static dev.crucible.application.feedback.FeedbackFixtures.ACME;
import static dev.crucible.application.feedback.FeedbackFixtures.ANNOTATION_REF;
import static dev.crucible.application.feedback.FeedbackFixtures.CHAT;
import static dev.crucible.application.feedback.FeedbackFixtures.CLIENT_ID;
import static dev.crucible.application.feedback.FeedbackFixtures.CLOCK;
import static dev.crucible.application.feedback.FeedbackFixtures.GLOBEX;
import static dev.crucible.application.feedback.FeedbackFixtures.OTHER_PROJECT;
import static dev.crucible.application.feedback.FeedbackFixtures.annotation;
import static dev.crucible.application.feedback.FeedbackFixtures.draft;
import static dev.crucible.application.feedback.FeedbackFixtures.inQueue;
import static dev.crucible.application.feedback.FeedbackFixtures.note;
import static dev.crucible.application.feedback.FeedbackFixtures.reaction;
import static dev.crucible.application.feedback.FeedbackFixtures.withId;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.refusal;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.feedback.Feedback;
import dev.crucible.domain.feedback.FeedbackDraft;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CreateFeedbackServiceTest {

    private static final Map<String, Object> SCORE_SPEC = Map.of("field_schema",
            Map.of("type", "integer", "minimum", 1, "maximum", 5), "unique_among_creators", true);

    private final InMemoryFeedbackStore store = new InMemoryFeedbackStore();
    private final FakeAnnotationSpecs specs = new FakeAnnotationSpecs().put(CHAT, "quality:v1", SCORE_SPEC);
    private final FakeAnnotationQueues queues = new FakeAnnotationQueues().add(CHAT, "queue-1");
    private final CreateFeedbackUseCase create =
            new CreateFeedbackService(store, new FeedbackAdmission(specs, new FakeSchemaValidator(), queues, CLOCK));
    private final CreateFeedbackUseCase createWithoutSpecs =
            new CreateFeedbackService(store, new FeedbackAdmission(new FakeAnnotationSpecs(), new FakeSchemaValidator(), queues,
                    CLOCK));

    private FeedbackReceipt created(FeedbackDraft draft) {
        return value(create.create(new CreateFeedbackCommand(ACME, draft)));
    }

    private Refusal refused(FeedbackDraft draft) {
        Refusal refusal = refusal(create.create(new CreateFeedbackCommand(ACME, draft)));
        assertEquals(0, store.size(), "a refused create stores nothing");
        return refusal;
    }

    @Test
    void storesTheRowAndAnswersIdCreatedAtUserAndPayload() {
        FeedbackReceipt receipt = created(note("good answer"));
        Feedback row = store.find(CHAT, receipt.id()).orElseThrow();
        assertEquals(Instant.parse("2025-03-01T12:00:00.123456Z"), receipt.createdAt());
        assertEquals(ACME.userId(), receipt.svcUserId());
        assertEquals(Map.of("note", "good answer"), receipt.payload());
        assertEquals(receipt.createdAt(), row.createdAt());
        assertEquals(ACME.userId(), row.svcUserId());
        assertEquals("wandb.note.1", row.feedbackType());
    }

    @Test
    void usesTheClientIdWhenGiven() {
        assertEquals(CLIENT_ID, created(withId(note("x"), CLIENT_ID)).id());
    }

    @Test
    void refusesADuplicateIdInTheSameProjectAsConflict() {
        created(withId(note("first"), CLIENT_ID));
        Refusal refusal = refusal(create.create(new CreateFeedbackCommand(ACME, withId(note("second"), CLIENT_ID))));
        assertEquals(Refusal.Reason.CONFLICT, refusal.reason());
        assertEquals("first", store.find(CHAT, CLIENT_ID).orElseThrow().payload().get("note"));
    }

    @Test
    void refusesAnotherEntitysProjectAsNotFound() {
        Refusal refusal = refusal(create.create(new CreateFeedbackCommand(GLOBEX, note("sneaky"))));
        assertEquals(Refusal.Reason.NOT_FOUND, refusal.reason());
        assertEquals("project acme/chat not found", refusal.message());
        assertEquals("project_id", refusal.param());
        assertEquals(0, store.size());
    }

    @Test
    void addsReactionAliasesToThePayload() {
        assertEquals(Map.of("emoji", "👍", "alias", ":thumbs_up:", "detoned", "👍", "detoned_alias", ":thumbs_up:"),
                created(reaction("👍")).payload());
        assertEquals(
                Map.of("emoji", "👎", "alias", ":thumbs_down:", "detoned", "👎", "detoned_alias", ":thumbs_down:"),
                created(reaction("👎")).payload());
    }

    @Test
    void detonesSkinTonedReactions() {
        assertEquals(Map.of("emoji", "👍🏽", "alias", ":thumbs_up_medium_skin_tone:", "detoned", "👍",
                "detoned_alias", ":thumbs_up:"), created(reaction("👍🏽")).payload());
    }

    @Test
    void refusesReactionsWithoutExactlyOneEmoji() {
        for (String text : new String[] {"👍👍", "abc", ""}) {
            Refusal refusal = refused(reaction(text));
            assertEquals("Value of emoji key in payload must be exactly one emoji", refusal.message());
            assertEquals("payload", refusal.param());
        }
    }

    @Test
    void acceptsOneEmojiAmongText() {
        assertEquals("a:thumbs_up:", created(reaction("a👍")).payload().get("alias"));
    }

    @Test
    void keepsPayloadsOfOtherTypesAsSent() {
        assertEquals(Map.of("emoji", "👍"), created(draft(CHAT, "reaction", Map.of("emoji", "👍"))).payload());
    }

    @Test
    void rule8RefusesAnnotationWhoseSpecIsMissing() {
        FeedbackDraft draft = annotation(Map.of("value", 3), null);
        assertEquals("Annotation ref " + ANNOTATION_REF + " not found",
                refusal(createWithoutSpecs.create(new CreateFeedbackCommand(ACME, draft))).message());
    }

    @Test
    void rule8bRefusesSpecsThatAreNotAnnotationSpecs() {
        for (Object bad : new Object[] {"not-a-spec", Map.of("other", 1), Map.of("field_schema", "x")}) {
            specs.put(CHAT, "quality:v1", bad);
            assertEquals("Annotation ref " + ANNOTATION_REF + " is not a valid annotation spec",
                    refused(annotation(Map.of("value", 3), null)).message());
        }
    }

    @Test
    void rule9ChecksTheValueAgainstTheSpecSchema() {
        Refusal refusal = refused(annotation(Map.of("value", 9), null));
        assertEquals("Feedback payload does not match annotation spec", refusal.message());
        assertEquals("payload", refusal.param());
        assertEquals(Map.of("value", 4), created(annotation(Map.of("value", 4), null)).payload());
    }

    @Test
    void refusesSpecsUsingKeywordsOutsideTheSupportedSubset() {
        specs.put(CHAT, "quality:v1", Map.of("field_schema", Map.of("$ref", "#/defs/x")));
        assertEquals("Annotation ref " + ANNOTATION_REF + " has a field_schema this server cannot check: "
                + "unsupported JSON Schema keyword $ref", refused(annotation(Map.of("value", 1), null)).message());
    }

    @Test
    void checksTheSpecBeforeRefFormatsAsWeaveDoes() {
        FeedbackDraft draft = annotation(Map.of("value", 3), "not-a-call-ref");
        assertEquals("Annotation ref " + ANNOTATION_REF + " not found",
                refusal(createWithoutSpecs.create(new CreateFeedbackCommand(ACME, draft))).message());
        assertEquals("Invalid ref: not-a-call-ref, Invalid URI: not-a-call-ref. Must start with <scheme>:///",
                refused(draft).message());
    }

    @Test
    void rule11RefusesAQueueThatIsMissingOrInAnotherProject() {
        Refusal refusal = refused(inQueue(note("x"), "00000000-0000-0000-0000-000000000000"));
        assertEquals("Queue 00000000-0000-0000-0000-000000000000 not found or has been deleted", refusal.message());
        assertEquals("queue_id", refusal.param());
        queues.add(OTHER_PROJECT, "queue-2");
        assertEquals("Queue queue-2 not found or has been deleted", refused(inQueue(note("x"), "queue-2")).message());
        assertEquals(Map.of("note", "x"), created(inQueue(note("x"), "queue-1")).payload());
    }

    @Test
    void rule13MeasuresTheProcessedPayload() {
        // json.dumps of {"emoji": "👍", "pad": "<s>"} after the alias fields are added is 119 + len(s) characters
        String fits = "a".repeat(1024 * 1024 - 119);
        assertEquals("Feedback payload too large", refused(draft(CHAT, "wandb.reaction.1",
                Map.of("emoji", "👍", "pad", fits + "a"))).message());
        assertEquals(fits, created(draft(CHAT, "wandb.reaction.1", Map.of("emoji", "👍", "pad", fits))).payload()
                .get("pad"));
    }

    @Test
    void aStoredSpecWhosePatternNeedsBacktrackingRefusesTheAnnotationNamingTheRef() {
        FakeAnnotationSpecs backtracking = new FakeAnnotationSpecs().put(CHAT, "quality:v1",
                Map.of("field_schema", Map.of("type", "string", "pattern", "^(a+)\\1$")));
        Refusal refusal = refusal(new CreateFeedbackService(store, new FeedbackAdmission(backtracking,
                new FakeSchemaValidator(), queues, CLOCK))
                .create(new CreateFeedbackCommand(ACME, FeedbackFixtures.annotation(Map.of("value", "aa"), null))));
        assertEquals("annotation_ref", refusal.param());
        assertTrue(refusal.message().contains("field_schema.pattern") && refusal.message().contains("backreference"),
                refusal.message());
    }

    @Test
    void checkingAValuePastTheWorkBoundRefusesThePayloadNamingTheSetting() {
        FakeAnnotationSpecs patterned = new FakeAnnotationSpecs().put(CHAT, "quality:v1",
                Map.of("field_schema", Map.of("type", "string", "pattern", "^a*a*a*a*b")));
        CreateFeedbackUseCase bounded = new CreateFeedbackService(store, new FeedbackAdmission(patterned,
                new FakeSchemaValidator(), queues, CLOCK,
                new SpecLimits(1_000, 10_000, 32, 10_000)));
        Refusal refusal = refusal(bounded.create(new CreateFeedbackCommand(ACME,
                FeedbackFixtures.annotation(Map.of("value", "a".repeat(5_000)), null))));
        assertEquals("payload", refusal.param());
        assertTrue(refusal.message().contains(SpecLimits.MAX_CHECK_WORK_SETTING), refusal.message());
        value(bounded.create(new CreateFeedbackCommand(ACME, FeedbackFixtures.annotation(Map.of("value", "aab"),
                null))));
    }
}
