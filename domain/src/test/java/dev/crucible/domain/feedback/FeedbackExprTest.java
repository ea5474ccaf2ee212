package dev.crucible.domain.feedback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FeedbackExprTest {

    private static final FeedbackExpr NOTE = new FeedbackExpr.GetField(
            new FeedbackField.PayloadPath("payload.note", List.of("note")));

    @Test
    void literalsAreStringsLongsDoublesBooleansOrNull() {
        for (Object ok : new Object[] {"a", 1L, 1.5, true, null}) {
            assertEquals(ok, new FeedbackExpr.Literal(ok).value());
        }
        assertThrows(IllegalArgumentException.class, () -> new FeedbackExpr.Literal(1));
        assertThrows(IllegalArgumentException.class, () -> new FeedbackExpr.Literal(List.of()));
    }

    @Test
    void andAndOrNeedAnOperandAndKeepACopyOfThem() {
        IllegalArgumentException and = assertThrows(IllegalArgumentException.class,
                () -> new FeedbackExpr.And(List.of()));
        assertTrue(and.getMessage().contains("$and"), and.getMessage());
        IllegalArgumentException or = assertThrows(IllegalArgumentException.class,
                () -> new FeedbackExpr.Or(List.of()));
        assertTrue(or.getMessage().contains("$or"), or.getMessage());

        List<FeedbackExpr> operands = new ArrayList<>(List.of(NOTE));
        FeedbackExpr.And kept = new FeedbackExpr.And(operands);
        operands.clear();
        assertEquals(List.of(NOTE), kept.operands());
    }

    @Test
    void anEmptyInMatchesNothingButIsAllowedAndOperandsMustBeThere() {
        assertEquals(List.of(), new FeedbackExpr.In(NOTE, List.of()).candidates());
        assertThrows(NullPointerException.class, () -> new FeedbackExpr.Not(null));
        assertThrows(NullPointerException.class, () -> new FeedbackExpr.Compare(FeedbackExpr.Comparison.EQ, NOTE, null));
        assertThrows(NullPointerException.class, () -> new FeedbackExpr.Convert(NOTE, null));
        assertThrows(NullPointerException.class, () -> new FeedbackExpr.Contains(null, NOTE, false));
    }
}
