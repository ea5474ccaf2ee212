package dev.crucible.adapters.http.feedback;

import static dev.crucible.adapters.http.feedback.FeedbackBodies.body;
import static dev.crucible.adapters.http.feedback.FeedbackBodies.refusal;
import static dev.crucible.adapters.http.feedback.FeedbackBodies.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.domain.feedback.FeedbackDraft;
import dev.crucible.domain.feedback.FeedbackReplacement;
import dev.crucible.domain.feedback.ProjectId;
import dev.crucible.domain.refusal.Refusal;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FeedbackDraftReaderTest {

    private static Map<String, Object> minimal() {
        return body("project_id", "acme/chat", "svc_ref", "weave:///acme/chat/object/a:b", "feedback_type", "custom",
                "payload", Map.of("k", "v"));
    }

    private static void assertRefused(Map<String, Object> body, String param, String message) {
        Refusal refusal = refusal(FeedbackDraftReader.read(body));
        assertEquals(param, refusal.param());
        assertEquals(message, refusal.message());
    }

    @Test
    void readsRequiredAndOptionalFields() {
        Map<String, Object> body = minimal();
        body.put("id", "0190f3a1-1234-7abc-8def-0123456789ab");
        body.put("creator", "Jane");
        body.put("queue_id", "q1");
        body.put("call_ref", null);
        FeedbackDraft draft = value(FeedbackDraftReader.read(body));
        assertEquals(new ProjectId("acme", "chat"), draft.project());
        assertEquals("weave:///acme/chat/object/a:b", draft.svcRef());
        assertEquals(Map.of("k", "v"), draft.payload());
        assertEquals("0190f3a1-1234-7abc-8def-0123456789ab", draft.id().orElseThrow().toString());
        assertEquals(Optional.of("Jane"), draft.creator());
        assertEquals(Optional.of("q1"), draft.queueId());
        assertEquals(Optional.empty(), draft.callRef());
    }

    @Test
    void acceptsWeaveRefAsAliasOfSvcRef() {
        Map<String, Object> body = minimal();
        body.put("weave_ref", body.remove("svc_ref"));
        assertEquals("weave:///acme/chat/object/a:b", value(FeedbackDraftReader.read(body)).svcRef());
    }

    @Test
    void refusesIdNotInUuidForm() {
        Map<String, Object> body = minimal();
        body.put("id", "my-id");
        assertRefused(body, "id", "id must be a UUID, got 'my-id'");
    }

    @Test
    void refusesClientSentUserIdUnderEitherName() {
        Map<String, Object> body = minimal();
        body.put("wb_user_id", "someone");
        assertRefused(body, "wb_user_id", "wb_user_id must not be set by the client; the server fills it");
        body.remove("wb_user_id");
        body.put("svc_user_id", "someone");
        assertRefused(body, "svc_user_id", "svc_user_id must not be set by the client; the server fills it");
    }

    @Test
    void refusesUnknownKeys() {
        Map<String, Object> body = minimal();
        body.put("scorer_tags", "x");
        assertRefused(body, "scorer_tags", "scorer_tags is not a known field (extra inputs are not permitted)");
    }

    @Test
    void ignoresUnknownKeysSentAsNullByNewerClients() {
        Map<String, Object> body = minimal();
        body.put("scorer_tags", null);
        body.put("span_trace_id", null);
        body.put("wb_user_id", null);
        assertEquals("custom", value(FeedbackDraftReader.read(body)).feedbackType());
    }

    @Test
    void refusesMissingRequiredFields() {
        Map<String, Object> body = minimal();
        body.remove("feedback_type");
        assertRefused(body, "feedback_type", "feedback_type is required");
        body = minimal();
        body.remove("payload");
        assertRefused(body, "payload", "payload is required");
        body = minimal();
        body.remove("svc_ref");
        assertRefused(body, "svc_ref", "svc_ref is required");
    }

    @Test
    void refusesPayloadThatIsNotAnObject() {
        Map<String, Object> body = minimal();
        body.put("payload", "text");
        assertRefused(body, "payload", "payload must be an object, got a string");
    }

    @Test
    void refusesMalformedProjectId() {
        Map<String, Object> body = minimal();
        body.put("project_id", "acme");
        assertRefused(body, "project_id", "project_id must be <entity>/<project>, got 'acme'");
    }

    @Test
    void refusesWrongTypeForOptionalString() {
        Map<String, Object> body = minimal();
        body.put("creator", 5L);
        assertRefused(body, "creator", "creator must be a string, got the number 5");
    }

    @Test
    void readsReplacementWithFeedbackId() {
        Map<String, Object> body = minimal();
        body.put("feedback_id", "old-id");
        FeedbackReplacement replacement = value(FeedbackDraftReader.readReplacement(body));
        assertEquals("old-id", replacement.feedbackId());
        assertEquals("custom", replacement.draft().feedbackType());
    }

    @Test
    void replacementRequiresFeedbackIdAndCreateRefusesIt() {
        Refusal refusal = refusal(FeedbackDraftReader.readReplacement(minimal()));
        assertEquals("feedback_id is required", refusal.message());
        Map<String, Object> body = minimal();
        body.put("feedback_id", "x");
        assertRefused(body, "feedback_id", "feedback_id is not a known field (extra inputs are not permitted)");
    }

    @Test
    void keepsNullValuesInsidePayload() {
        Map<String, Object> body = minimal();
        body.put("payload", body("value", null));
        FeedbackDraft draft = value(FeedbackDraftReader.read(body));
        assertTrue(draft.payload().containsKey("value"));
    }
}
