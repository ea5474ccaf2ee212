package dev.crucible.adapters.http.feedback;

import static dev.crucible.adapters.http.feedback.FeedbackBodies.body;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.refusal;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.domain.feedback.FeedbackDraft;
import dev.crucible.domain.feedback.FeedbackReplacement;
import dev.crucible.domain.feedback.ProjectId;
import dev.crucible.kernel.refusal.Refusal;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

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

    static Stream<Arguments> badFields() {
        return Stream.of(
                Arguments.of("an id not in UUID form", "id", "my-id", "id must be a UUID, got 'my-id'"),
                Arguments.of("a client-sent user id", "wb_user_id", "someone",
                        "wb_user_id must not be set by the client; the server fills it"),
                Arguments.of("a client-sent user id under its other name", "svc_user_id", "someone",
                        "svc_user_id must not be set by the client; the server fills it"),
                Arguments.of("an unknown key", "scorer_tags", "x",
                        "scorer_tags is not a known field (extra inputs are not permitted)"),
                Arguments.of("a payload that is not an object", "payload", "text",
                        "payload must be an object, got a string"),
                Arguments.of("a malformed project id", "project_id", "acme",
                        "project_id must be <entity>/<project>, got 'acme'"),
                Arguments.of("a wrong type for an optional string", "creator", 5L,
                        "creator must be a string, got the number 5"));
    }

    @ParameterizedTest(name = "refuses {0}")
    @MethodSource("badFields")
    void refusesABadField(String what, String field, Object value, String message) {
        Map<String, Object> body = minimal();
        body.put(field, value);
        assertRefused(body, field, message);
    }

    @ParameterizedTest
    @ValueSource(strings = {"feedback_type", "payload", "svc_ref"})
    void refusesAMissingRequiredField(String field) {
        Map<String, Object> body = minimal();
        body.remove(field);
        assertRefused(body, field, field + " is required");
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
