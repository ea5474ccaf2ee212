package dev.crucible.application.feedback;

import static dev.crucible.application.feedback.FeedbackFixtures.ACME;
import static dev.crucible.application.feedback.FeedbackFixtures.ACME_OTHER_KEY;
import static dev.crucible.application.feedback.FeedbackFixtures.CHAT;
import static dev.crucible.application.feedback.FeedbackFixtures.CLIENT_ID;
import static dev.crucible.application.feedback.FeedbackFixtures.GLOBEX;
import static dev.crucible.application.feedback.FeedbackFixtures.NOW;
import static dev.crucible.application.feedback.FeedbackFixtures.OTHER_PROJECT;
import static dev.crucible.application.feedback.FeedbackFixtures.draft;
import static dev.crucible.application.feedback.FeedbackFixtures.note;
import static dev.crucible.application.feedback.FeedbackFixtures.reaction;
import static dev.crucible.application.feedback.FeedbackFixtures.withId;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.refusal;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.feedback.Feedback;
import dev.crucible.domain.feedback.FeedbackDraft;
import dev.crucible.domain.feedback.FeedbackId;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReplaceFeedbackServiceTest {

    private static final Clock LATER = Clock.fixed(NOW.plus(Duration.ofMinutes(5)), ZoneOffset.UTC);

    private final InMemoryFeedbackStore store = new InMemoryFeedbackStore();
    private final FakeAnnotationSpecs specs = new FakeAnnotationSpecs();
    private final FakeAnnotationQueues queues = new FakeAnnotationQueues();
    private final CreateFeedbackUseCase create =
            new CreateFeedbackService(store, new FeedbackAdmission(specs, new FakeSchemaValidator(), queues,
                    FeedbackFixtures.CLOCK));
    private final FeedbackReceipt original = value(create.create(new CreateFeedbackCommand(ACME, note("first"))));
    private final ReplaceFeedbackUseCase replace =
            new ReplaceFeedbackService(store, new FeedbackAdmission(specs, new FakeSchemaValidator(), queues, LATER));

    private FeedbackReceipt replaced(String feedbackId, FeedbackDraft draft) {
        return value(replace.replace(new ReplaceFeedbackCommand(ACME_OTHER_KEY, feedbackId, draft)));
    }

    @Test
    void deletesTheOldRowAndInsertsOneWithANewId() {
        FeedbackReceipt receipt = replaced(original.id().toString(), reaction("👍"));
        assertNotEquals(original.id(), receipt.id());
        assertTrue(store.find(CHAT, original.id()).isEmpty());
        Feedback row = store.find(CHAT, receipt.id()).orElseThrow();
        assertEquals("wandb.reaction.1", row.feedbackType());
        assertEquals(":thumbs_up:", receipt.payload().get("alias"));
        assertEquals(1, store.size());
    }

    @Test
    void writesANewCreatedAtAndTheReplacingCallerAsUser() {
        FeedbackReceipt receipt = replaced(original.id().toString(), note("second"));
        assertEquals(NOW.plus(Duration.ofMinutes(5)).truncatedTo(java.time.temporal.ChronoUnit.MICROS),
                receipt.createdAt());
        assertEquals(ACME_OTHER_KEY.userId(), receipt.svcUserId());
        assertNotEquals(original.svcUserId(), receipt.svcUserId());
    }

    @Test
    void keepsTheIdWhenTheDraftIdIsTheFeedbackId() {
        FeedbackReceipt first = value(create.create(new CreateFeedbackCommand(ACME, withId(note("v1"), CLIENT_ID))));
        FeedbackReceipt second = replaced(CLIENT_ID.toString(), withId(note("v2"), CLIENT_ID));
        assertEquals(first.id(), second.id());
        assertEquals("v2", store.find(CHAT, CLIENT_ID).orElseThrow().payload().get("note"));
        assertEquals(2, store.size());
    }

    @Test
    void actsAsCreateWhenTheOldRowDoesNotExist() {
        FeedbackReceipt receipt = replaced(FeedbackId.random().toString(), note("new"));
        assertTrue(store.find(CHAT, receipt.id()).isPresent());
        assertTrue(store.find(CHAT, original.id()).isPresent());
        assertEquals(2, store.size());
    }

    @Test
    void actsAsCreateWhenTheFeedbackIdIsNotAUuid() {
        replaced("not-a-uuid", note("new"));
        assertEquals(2, store.size());
    }

    @Test
    void keepsTheOldRowWhenTheReplacementIsInvalid() {
        Refusal refusal = refusal(replace.replace(new ReplaceFeedbackCommand(ACME, original.id().toString(),
                reaction("👍👍"))));
        assertEquals("Value of emoji key in payload must be exactly one emoji", refusal.message());
        assertEquals("first", store.find(CHAT, original.id()).orElseThrow().payload().get("note"));
        assertEquals(1, store.size());
    }

    @Test
    void keepsTheOldRowWhenTheNewIdIsTaken() {
        FeedbackReceipt other = value(create.create(new CreateFeedbackCommand(ACME, withId(note("other"), CLIENT_ID))));
        Refusal refusal = refusal(replace.replace(new ReplaceFeedbackCommand(ACME, original.id().toString(),
                withId(note("clash"), other.id()))));
        assertEquals(Refusal.Reason.CONFLICT, refusal.reason());
        assertTrue(store.find(CHAT, original.id()).isPresent());
    }

    @Test
    void deletesOnlyInTheDraftsProject() {
        FeedbackReceipt receipt = replaced(original.id().toString(), draft(OTHER_PROJECT, "custom", Map.of()));
        assertTrue(store.find(CHAT, original.id()).isPresent());
        assertTrue(store.find(OTHER_PROJECT, receipt.id()).isPresent());
    }

    @Test
    void refusesAnotherEntitysProjectAsNotFoundAndKeepsTheirRow() {
        Refusal refusal = refusal(replace.replace(new ReplaceFeedbackCommand(GLOBEX, original.id().toString(),
                note("hijack"))));
        assertEquals(Refusal.Reason.NOT_FOUND, refusal.reason());
        assertEquals("project acme/chat not found", refusal.message());
        assertEquals("first", store.find(CHAT, original.id()).orElseThrow().payload().get("note"));
    }
}
