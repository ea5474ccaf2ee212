package dev.crucible.adapters.persistence.feedback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.domain.feedback.FeedbackExpr;
import dev.crucible.domain.feedback.FeedbackExpr.Comparison;
import dev.crucible.domain.feedback.FeedbackExpr.ConvertTo;
import dev.crucible.domain.feedback.FeedbackField;
import dev.crucible.kernel.refusal.RefusalException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class FeedbackSqlTest {

    static final FeedbackSqlLimits LIMITS = new FeedbackSqlLimits(1_000_000, 30_000);

    static FeedbackExpr path(String name) {
        return new FeedbackExpr.GetField(FeedbackField.parse("payload." + name).orElseThrow());
    }

    static FeedbackExpr literal(Object value) {
        return new FeedbackExpr.Literal(value);
    }

    /** The query: each level an {@code $in} whose needle is the level below, with two candidates. */
    static FeedbackExpr nestedIn(int depth) {
        FeedbackExpr expr = new FeedbackExpr.Compare(Comparison.EQ, path("score"), literal(1L));
        for (int i = 0; i < depth; i++) {
            expr = new FeedbackExpr.In(expr, List.of(literal(true), literal(1L)));
        }
        return expr;
    }

    private static FeedbackExpr nest(int depth, UnaryOperator<FeedbackExpr> level) {
        FeedbackExpr expr = path("note");
        for (int i = 0; i < depth; i++) {
            expr = level.apply(expr);
        }
        return expr;
    }

    private static int sqlLength(FeedbackExpr expr) {
        return FeedbackSql.condition(expr, LIMITS).sql().length();
    }

    @Test
    void nestedInGrowsTheSqlLinearlyNotByDoubling() {
        int at10 = sqlLength(nestedIn(10));
        int at20 = sqlLength(nestedIn(20));
        int at60 = sqlLength(nestedIn(60));
        // linear: each level adds the same amount
        assertEquals(at20 - at10, (at60 - at20) / 4, 2.0);
        assertTrue(at60 < 20_000, "60 levels: " + at60 + " characters");
    }

    @Test
    void nestedInKeepsItsParametersLinearToo() {
        SqlFragment sql = FeedbackSql.condition(nestedIn(60), LIMITS);
        // two literals per level, and the innermost comparison's path and literal a few times
        assertTrue(sql.params().size() < 2 * 60 + 20, sql.params().size() + " parameters");
    }

    @Test
    void alternatingConversionsGrowLinearly() {
        UnaryOperator<FeedbackExpr> level = e -> new FeedbackExpr.Convert(new FeedbackExpr.Convert(e, ConvertTo.DOUBLE),
                ConvertTo.STRING);
        UnaryOperator<FeedbackExpr> boolLevel = e -> new FeedbackExpr.Convert(new FeedbackExpr.Convert(e, ConvertTo.BOOL),
                ConvertTo.STRING);
        assertTrue(sqlLength(nest(30, level)) < 10_000);
        assertTrue(sqlLength(nest(30, boolLevel)) < 10_000);
    }

    @Test
    void comparisonsOfNestedTextWithNumbersGrowLinearly() {
        UnaryOperator<FeedbackExpr> level = e -> new FeedbackExpr.Convert(
                new FeedbackExpr.Compare(Comparison.EQ, new FeedbackExpr.Convert(e, ConvertTo.STRING), literal(1L)),
                ConvertTo.STRING);
        assertTrue(sqlLength(nest(30, level)) < 15_000);
    }

    @Test
    void aNeedleThatIsAnExpressionIsComputedOnceInASubquery() {
        FeedbackExpr in = new FeedbackExpr.In(new FeedbackExpr.Contains(path("note"), literal("x"), false),
                List.of(literal(true), literal(1L), literal("true")));
        String sql = FeedbackSql.condition(in, LIMITS).sql();
        assertEquals(1, count(sql, "strpos("), sql);
        assertTrue(sql.contains("OFFSET 0"), sql);
    }

    @Test
    void aLeafNeedleIsComparedWithEachKindOfCandidateOnce() {
        List<FeedbackExpr> candidates = new ArrayList<>();
        for (long i = 0; i < 500; i++) {
            candidates.add(literal(i));
        }
        String sql = FeedbackSql.condition(new FeedbackExpr.In(path("score"), candidates), LIMITS).sql();
        assertEquals(1, count(sql, "= ANY(ARRAY["), sql.substring(0, 300));
        assertTrue(sql.length() < 500 * 30, sql.length() + " characters");
    }

    @Test
    void sqlPastTheCharacterLimitIsRefusedNamingQueryAndTheSetting() {
        List<FeedbackExpr> terms = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            terms.add(new FeedbackExpr.Compare(Comparison.GT, path("score"), literal((long) i)));
        }
        FeedbackExpr wide = new FeedbackExpr.Or(terms);
        RefusalException refused = assertThrows(RefusalException.class,
                () -> FeedbackSql.condition(wide, new FeedbackSqlLimits(20_000, 30_000)));
        assertEquals("query", refused.refusal().param());
        assertTrue(refused.getMessage().contains("crucible.feedback.max-query-sql-chars"), refused.getMessage());
        assertTrue(FeedbackSql.condition(wide, LIMITS).sql().length() > 20_000);
    }

    @Test
    void parametersPastTheLimitAreRefusedNamingTheSetting() {
        List<FeedbackExpr> terms = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            terms.add(new FeedbackExpr.Compare(Comparison.EQ, path("p" + i), literal((long) i)));
        }
        RefusalException refused = assertThrows(RefusalException.class,
                () -> FeedbackSql.condition(new FeedbackExpr.And(terms), new FeedbackSqlLimits(1_000_000, 100)));
        assertEquals("query", refused.refusal().param());
        assertTrue(refused.getMessage().contains("crucible.feedback.max-query-params"), refused.getMessage());
    }

    @Test
    void limitsOutsideWhatPostgresqlCarriesAreAConfigurationError() {
        assertThrows(IllegalArgumentException.class, () -> new FeedbackSqlLimits(1000, 40_000));
        assertThrows(IllegalArgumentException.class, () -> new FeedbackSqlLimits(0, 10));
    }

    @Test
    void aPayloadValueAndCreatedAtAreComparedAsText() {
        FeedbackExpr createdAt = new FeedbackExpr.GetField(FeedbackField.parse("created_at").orElseThrow());
        String sql = FeedbackSql.condition(new FeedbackExpr.Compare(Comparison.LT, path("when"), createdAt), LIMITS)
                .sql();
        assertTrue(sql.contains("to_char(created_at"), sql);
        assertTrue(sql.contains("jsonb_typeof((payload #> ?)) = 'string'"), sql);
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }
}
