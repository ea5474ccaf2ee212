package dev.crucible.domain.feedback;

import static dev.crucible.domain.feedback.Drafts.refusal;
import static dev.crucible.domain.feedback.Drafts.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.domain.tenancy.EntityName;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ProjectIdTest {

    @Test
    void parsesEntitySlashProject() {
        ProjectId id = value(ProjectId.parse("acme/chat"));
        assertEquals("acme", id.entity());
        assertEquals("chat", id.project());
        assertEquals("acme/chat", id.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "acme", "acme/", "/chat", "acme/chat/x", "//", "a//b"})
    void refusesAnythingButTwoNonEmptySegments(String text) {
        Refusal refusal = refusal(ProjectId.parse(text));
        assertEquals(Refusal.Reason.INVALID, refusal.reason());
        assertEquals("project_id", refusal.param());
        assertEquals("project_id must be <entity>/<project>, got '" + text + "'", refusal.message());
    }

    @Test
    void constructorRejectsSlashInSegment() {
        assertThrows(IllegalArgumentException.class, () -> new ProjectId("a/b", "c"));
    }

    @Test
    void isReachableByACallerOfItsOwnEntity() {
        ProjectId id = new ProjectId("acme", "chat");
        assertEquals(id, value(id.reachableBy(caller("acme"))));
    }

    @Test
    void refusesAnotherEntitysProjectAsNotFound() {
        Refusal refusal = refusal(new ProjectId("acme", "chat").reachableBy(caller("globex")));
        assertEquals(Refusal.Reason.NOT_FOUND, refusal.reason());
        assertEquals("project_id", refusal.param());
        assertEquals("project acme/chat not found", refusal.message());
    }

    private static Caller caller(String entity) {
        return new Caller(new EntityName(entity), UUID.fromString("00000000-0000-0000-0000-000000000007"));
    }

    @Test
    void feedbackIdAcceptsOnlyCanonicalUuids() {
        assertTrue(FeedbackId.parse("0190F3A1-1234-7abc-8def-0123456789ab").isPresent());
        assertEquals("0190f3a1-1234-7abc-8def-0123456789ab",
                FeedbackId.parse("0190F3A1-1234-7abc-8def-0123456789ab").orElseThrow().toString());
        assertTrue(FeedbackId.parse("1-1-1-1-1").isEmpty());
        assertTrue(FeedbackId.parse("not-a-uuid").isEmpty());
        assertTrue(FeedbackId.parse(null).isEmpty());
    }
}
