package dev.crucible.adapters.http.feedback;

import static dev.crucible.adapters.http.feedback.FeedbackBodies.body;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.refusal;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.domain.feedback.FeedbackPurge;
import dev.crucible.domain.feedback.ProjectId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FeedbackPurgeReaderTest {

    private static final String ID_A = "0190f3a1-1234-7abc-8def-0123456789ab";
    private static final String ID_B = "0190f3a1-1234-7abc-8def-0123456789ac";

    private static Map<String, Object> eqId(Object literal) {
        return Map.of("$eq", List.of(Map.of("$getField", "id"), body("$literal", literal)));
    }

    private static Map<String, Object> purge(Object expr) {
        return body("project_id", "acme/chat", "query", Map.of("$expr", expr));
    }

    private static String problem(Object expr) {
        return refusal(FeedbackPurgeReader.read(purge(expr))).message();
    }

    @Test
    void purgesOneIdByEq() {
        FeedbackPurge purge = value(FeedbackPurgeReader.read(purge(eqId(ID_A))));
        assertEquals(new ProjectId("acme", "chat"), purge.project());
        assertEquals(List.of(ID_A), purge.ids());
    }

    @Test
    void purgesSeveralIdsByOrOfEq() {
        FeedbackPurge purge = value(FeedbackPurgeReader.read(purge(Map.of("$or",
                List.of(eqId(ID_A), eqId(ID_B), eqId(ID_A), eqId("not-a-uuid"))))));
        assertEquals(List.of(ID_A, ID_B, "not-a-uuid"), purge.ids());
        assertEquals(2, purge.rowIds().size());
    }

    @Test
    void refusesAnyOtherShapeWithTheFeedbackMessage() {
        String message = "Can only purge feedback by specifying one or more feedback ids";
        assertEquals(message, problem(Map.of("$in", List.of(Map.of("$getField", "id"),
                List.of(Map.of("$literal", ID_A))))));
        assertEquals(message, problem(Map.of("$and", List.of(eqId(ID_A)))));
        assertEquals(message, problem(Map.of("$eq", List.of(Map.of("$getField", "creator"),
                Map.of("$literal", "x")))));
    }

    @Test
    void reportsWeaveKeyAndTypeMessages() {
        assertEquals("Expected value of type <class 'str'>, got <class 'int'>", problem(eqId(5L)));
        assertEquals("Expected key get_field_, got literal_", problem(Map.of("$eq", List.of(
                Map.of("$literal", ID_A), Map.of("$getField", "id")))));
        assertEquals("Expected key eq_, got gt_", problem(Map.of("$or", List.of(
                Map.of("$gt", List.of(Map.of("$getField", "id"), Map.of("$literal", ID_A)))))));
        assertEquals("Can only purge by specifying one or more ids", problem(Map.of("$or", List.of(eqId(ID_A),
                Map.of("$eq", List.of(Map.of("$getField", "creator"), Map.of("$literal", "x")))))));
    }

    @Test
    void refusesMissingQuery() {
        assertEquals("query is required", refusal(FeedbackPurgeReader.read(body("project_id", "a/b"))).message());
    }
}
