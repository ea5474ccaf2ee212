package dev.crucible.adapters.http.feedback;

import static dev.crucible.adapters.http.feedback.FeedbackBodies.body;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.refusal;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.domain.feedback.FeedbackColumn;
import dev.crucible.domain.feedback.FeedbackExpr.Comparison;
import dev.crucible.domain.feedback.FeedbackExpr;
import dev.crucible.domain.feedback.FeedbackField;
import dev.crucible.domain.feedback.FeedbackQuery;
import dev.crucible.domain.feedback.FeedbackQueryLimits;
import dev.crucible.domain.feedback.ProjectId;
import dev.crucible.domain.feedback.SortKey;
import dev.crucible.domain.paging.SortOrder;
import dev.crucible.kernel.refusal.Refusal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class FeedbackQueryReaderTest {

    private static Map<String, Object> eq(Object field, Object literal) {
        return Map.of("$eq", List.of(Map.of("$getField", field), body("$literal", literal)));
    }

    private static Map<String, Object> query(Object expr) {
        return body("project_id", "acme/chat", "query", Map.of("$expr", expr));
    }

    private static Refusal refused(Map<String, Object> body) {
        return refusal(FeedbackQueryReader.read(body));
    }

    @Test
    void readsFieldsSortLimitAndOffset() {
        FeedbackQuery q = value(FeedbackQueryReader.read(body("project_id", "acme/chat",
                "fields", List.of("id", "weave_ref", "payload.note"),
                "sort_by", List.of(Map.of("field", "created_at", "direction", "desc")), "limit", 10L, "offset", 0L)));
        assertEquals(new ProjectId("acme", "chat"), q.project());
        assertEquals(List.of("id", "svc_ref", "payload.note"), q.fields().stream().map(FeedbackField::name).toList());
        assertEquals(new FeedbackField.PayloadPath("payload.note", List.of("note")), q.fields().get(2));
        assertEquals(List.of(new SortKey(new FeedbackField.Column(FeedbackColumn.CREATED_AT), SortOrder.DESC)),
                q.sortBy());
        assertEquals(OptionalLong.of(10), q.limit());
        assertEquals(OptionalLong.of(0), q.offset());
        assertEquals(Optional.empty(), q.filter());
    }

    @Test
    void parsesTypedPayloadFilters() {
        FeedbackQuery q = value(FeedbackQueryReader.read(query(Map.of("$and", List.of(
                eq("payload.is_positive", false),
                Map.of("$gt", List.of(Map.of("$getField", "payload.rank"), Map.of("$literal", 1))))))));
        FeedbackExpr.And and = (FeedbackExpr.And) q.filter().orElseThrow();
        assertEquals(new FeedbackExpr.Compare(Comparison.EQ,
                new FeedbackExpr.GetField(new FeedbackField.PayloadPath("payload.is_positive", List.of("is_positive"))),
                new FeedbackExpr.Literal(false)), and.operands().get(0));
        assertEquals(new FeedbackExpr.Literal(1L), ((FeedbackExpr.Compare) and.operands().get(1)).right());
    }

    @Test
    void parsesEveryOperatorAndOperand() {
        Map<String, Object> expr = Map.of("$or", List.of(
                Map.of("$not", List.of(eq("queue_id", "q1"))),
                Map.of("$in", List.of(Map.of("$getField", "feedback_type"),
                        List.of(Map.of("$literal", "a"), Map.of("$literal", "b")))),
                Map.of("$contains", Map.of("input", Map.of("$getField", "creator"),
                        "substr", Map.of("$literal", "jan"), "case_insensitive", true)),
                Map.of("$gte", List.of(Map.of("$convert", Map.of("input", Map.of("$getField", "payload.score"),
                        "to", "double")), Map.of("$literal", 0.5))),
                Map.of("$lt", List.of(Map.of("$getField", "created_at"), Map.of("$literal", "2025-01-01"))),
                Map.of("$lte", List.of(Map.of("$getField", "wb_user_id"), Map.of("$literal", "u")))));
        FeedbackExpr.Or or = (FeedbackExpr.Or) value(FeedbackQueryReader.read(query(expr))).filter().orElseThrow();
        assertEquals(6, or.operands().size());
        FeedbackExpr.Contains contains = (FeedbackExpr.Contains) or.operands().get(2);
        assertEquals(true, contains.caseInsensitive());
        FeedbackExpr.Compare gte = (FeedbackExpr.Compare) or.operands().get(3);
        assertEquals(FeedbackExpr.ConvertTo.DOUBLE, ((FeedbackExpr.Convert) gte.left()).to());
    }

    @Test
    void splitsPayloadPathsOnUnescapedDots() {
        FeedbackQuery q = value(FeedbackQueryReader.read(body("project_id", "a/b", "fields",
                List.of("payload.a\\.b.0.c"))));
        assertEquals(List.of("a.b", "0", "c"), ((FeedbackField.PayloadPath) q.fields().getFirst()).path());
    }

    @Test
    void refusesUnknownFieldsWithWeaveMessage() {
        Refusal refusal = refused(body("project_id", "a/b", "fields", List.of("inputs.message_id")));
        assertEquals("Unknown field: inputs.message_id", refusal.message());
        assertEquals("fields", refusal.param());
        assertEquals("Unknown field: payload.", refused(body("project_id", "a/b", "fields", List.of("payload.")))
                .message());
        assertEquals("Unknown field: nope", refused(query(eq("nope", 1))).message());
        assertEquals("Unknown field: x", refused(body("project_id", "a/b", "sort_by",
                List.of(Map.of("field", "x", "direction", "asc")))).message());
    }

    @Test
    void refusesNegativeLimitAndOffset() {
        Refusal limit = refused(body("project_id", "a/b", "limit", -1L));
        assertEquals("Limit must be non-negative", limit.message());
        assertEquals("limit", limit.param());
        assertEquals("Offset must be non-negative", refused(body("project_id", "a/b", "offset", -5L)).message());
        assertEquals("limit must be an integer, got the number 1.5",
                refused(body("project_id", "a/b", "limit", 1.5)).message());
    }

    @Test
    void refusesEmptyAndOr() {
        assertEquals("$and requires at least one operand", refused(query(Map.of("$and", List.of()))).message());
        assertEquals("$or requires at least one operand", refused(query(Map.of("$or", List.of()))).message());
    }

    @Test
    void refusesMalformedExpressions() {
        assertEquals("query", refused(query(Map.of("$eq", List.of(Map.of("$literal", 1))))).param());
        assertEquals("$eq takes exactly 2 operands, got 1",
                refused(query(Map.of("$eq", List.of(Map.of("$literal", 1))))).message());
        assertEquals("Unknown query operator: $regex", refused(query(Map.of("$not", List.of(Map.of("$regex", "x")))))
                .message());
        assertEquals("query.$expr must be an operation, one of [$and, $contains, $eq, $gt, $gte, $in, $lt, $lte, "
                + "$not, $or]", refused(query(Map.of("$literal", true))).message());
        assertEquals("query must be an object with the single key $expr",
                refused(body("project_id", "a/b", "query", Map.of("$expr", eq("id", "x"), "extra", 1))).message());
        assertEquals("$convert.to must be one of double, string, int, bool, exists, got a string",
                refused(query(Map.of("$eq", List.of(Map.of("$convert", Map.of("input", Map.of("$literal", 1),
                        "to", "float")), Map.of("$literal", 1))))).message());
    }

    @Test
    void refusesNestingDeeperThanTheCap() {
        Object expr = eq("id", "x");
        for (int i = 0; i < FeedbackQueryLimits.MAX_DEPTH; i++) {
            expr = Map.of("$not", List.of(expr));
        }
        assertEquals("query is nested deeper than 64 levels", refused(query(expr)).message());
    }

    @Test
    void refusesListsLongerThanTheCap() {
        List<Object> operands = new ArrayList<>(Collections.nCopies(1001, eq("id", "x")));
        assertEquals("$or has 1001 operands, at most 1000 are allowed",
                refused(query(Map.of("$or", operands))).message());
        assertEquals("fields has 1001 entries, at most 1000 are allowed",
                refused(body("project_id", "a/b", "fields", Collections.nCopies(1001, "id"))).message());
    }

    @Test
    void refusesUnknownRequestKeys() {
        Refusal refusal = refused(body("project_id", "a/b", "filter", Map.of()));
        assertEquals("filter", refusal.param());
    }
}
