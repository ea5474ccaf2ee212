package dev.crucible.application.feedback;

import static dev.crucible.application.feedback.FeedbackFixtures.ACME;
import static dev.crucible.application.feedback.FeedbackFixtures.CHAT;
import static dev.crucible.application.feedback.FeedbackFixtures.CLOCK;
import static dev.crucible.application.feedback.FeedbackFixtures.GLOBEX;
import static dev.crucible.application.feedback.FeedbackFixtures.note;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.refusal;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.domain.feedback.FeedbackPurge;
import dev.crucible.domain.feedback.FeedbackQuery;
import dev.crucible.domain.feedback.ProjectId;
import dev.crucible.kernel.refusal.Refusal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class QueryAndPurgeFeedbackServiceTest {

    private final InMemoryFeedbackStore store = new InMemoryFeedbackStore();
    private final FeedbackReceipt stored = value(new CreateFeedbackService(store,
            new FeedbackAdmission(new FakeAnnotationSpecs(), new FakeSchemaValidator(), new FakeAnnotationQueues(),
                    CLOCK))
            .create(new CreateFeedbackCommand(ACME, note("kept"))));
    private final QueryFeedbackUseCase query = new QueryFeedbackService(store);
    private final PurgeFeedbackUseCase purge = new PurgeFeedbackService(store);

    private static FeedbackQuery allOf(String project) {
        return new FeedbackQuery(value(ProjectId.parse(project)), List.of(), Optional.empty(), List.of(),
                OptionalLong.empty(), OptionalLong.empty());
    }

    @Test
    void queriesRowsOfTheCallersProjectInTheSpecShape() {
        List<Map<String, Object>> rows = value(query.query(new QueryFeedbackCommand(ACME, allOf("acme/chat"))));
        assertEquals(1, rows.size());
        Map<String, Object> row = rows.getFirst();
        assertEquals(stored.id().toString(), row.get("id"));
        assertEquals("acme/chat", row.get("project_id"));
        assertEquals(ACME.userId(), row.get("svc_user_id"));
        assertEquals(Map.of("note", "kept"), row.get("payload"));
        assertEquals(List.of("id", "project_id", "svc_ref", "svc_user_id", "creator", "created_at", "feedback_type",
                "payload", "annotation_ref", "runnable_ref", "call_ref", "trigger_ref", "queue_id"),
                List.copyOf(row.keySet()));
    }

    @Test
    void refusesToQueryAnotherEntitysProjectWithoutAskingTheStore() {
        Refusal refusal = refusal(query.query(new QueryFeedbackCommand(GLOBEX, allOf("acme/chat"))));
        assertEquals(Refusal.Reason.NOT_FOUND, refusal.reason());
        assertEquals("project acme/chat not found", refusal.message());
        assertTrue(store.queries.isEmpty());
    }

    @Test
    void purgesTheNamedRowsOfTheCallersProject() {
        FeedbackPurge request = new FeedbackPurge(CHAT, List.of(stored.id().toString(), "not-a-uuid"));
        assertEquals(1, value(purge.purge(new PurgeFeedbackCommand(ACME, request))));
        assertEquals(0, store.size());
    }

    @Test
    void purgingUnknownIdsIsASilentSuccess() {
        FeedbackPurge request = new FeedbackPurge(CHAT, List.of("not-a-uuid"));
        assertEquals(0, value(purge.purge(new PurgeFeedbackCommand(ACME, request))));
        assertEquals(1, store.size());
    }

    @Test
    void refusesToPurgeAnotherEntitysProject() {
        FeedbackPurge request = new FeedbackPurge(CHAT, List.of(stored.id().toString()));
        Refusal refusal = refusal(purge.purge(new PurgeFeedbackCommand(GLOBEX, request)));
        assertEquals(Refusal.Reason.NOT_FOUND, refusal.reason());
        assertEquals(1, store.size());
    }
}
