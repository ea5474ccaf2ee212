package dev.crucible.domain.feedback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FeedbackFieldTest {

    @Test
    void aColumnIsNamedByItsWireNameAndItsAliasesNameTheSameColumn() {
        assertEquals(Optional.of(new FeedbackField.Column(FeedbackColumn.SVC_REF)), FeedbackField.parse("svc_ref"));
        assertEquals(Optional.of(new FeedbackField.Column(FeedbackColumn.SVC_REF)), FeedbackField.parse("weave_ref"));
        assertEquals("svc_ref", FeedbackField.parse("weave_ref").orElseThrow().name());
        assertEquals("payload", FeedbackField.parse("payload").orElseThrow().name());
    }

    @Test
    void aPayloadPathSplitsOnDotsAndKeepsEscapedDotsInsideKeys() {
        assertEquals(Optional.of(new FeedbackField.PayloadPath("payload.a.b", List.of("a", "b"))),
                FeedbackField.parse("payload.a.b"));
        assertEquals(Optional.of(new FeedbackField.PayloadPath("payload.a\\.b.c", List.of("a.b", "c"))),
                FeedbackField.parse("payload.a\\.b.c"));
        assertEquals(List.of("0", "x\\"), ((FeedbackField.PayloadPath) FeedbackField.parse("payload.0.x\\")
                .orElseThrow()).path(), "a trailing backslash is kept as it is");
        assertEquals("payload.a\\.b.c", FeedbackField.parse("payload.a\\.b.c").orElseThrow().name(),
                "the result-row key is the field as requested");
    }

    @Test
    void unknownNamesAndEmptyPathSegmentsAreNotFields() {
        assertEquals(Optional.empty(), FeedbackField.parse("nonsense"));
        assertEquals(Optional.empty(), FeedbackField.parse("payloadx.a"));
        assertEquals(Optional.empty(), FeedbackField.parse("payload."));
        assertEquals(Optional.empty(), FeedbackField.parse("payload.a..b"));
        assertEquals(Optional.empty(), FeedbackField.parse("payload.a."));
        assertThrows(IllegalArgumentException.class, () -> new FeedbackField.PayloadPath("payload", List.of()));
    }
}
