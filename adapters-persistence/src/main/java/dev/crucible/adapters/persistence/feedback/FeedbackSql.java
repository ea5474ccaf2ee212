package dev.crucible.adapters.persistence.feedback;

import dev.crucible.adapters.persistence.feedback.SqlFragment.Kind;
import dev.crucible.domain.paging.SortOrder;
import dev.crucible.domain.feedback.FeedbackColumn;
import dev.crucible.domain.feedback.FeedbackExpr;
import dev.crucible.domain.feedback.FeedbackField;
import dev.crucible.domain.feedback.SortKey;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Translates Weave's feedback query language into PostgreSQL. Payload paths read the {@code jsonb} payload;
 * a comparison of a payload path with a boolean, number or string literal compares values of that JSON type
 * only (a string never equals a number), as Weave's typed payload filters do. Literals are always parameters.
 */
final class FeedbackSql {

    private FeedbackSql() {
    }

    /** The column or payload path a field reads. */
    static SqlFragment field(FeedbackField field) {
        return switch (field) {
            case FeedbackField.Column c -> column(c.column());
            case FeedbackField.PayloadPath p -> SqlFragment.of("(payload #> ?)", Kind.JSON,
                    (Object) p.path().toArray(String[]::new));
        };
    }

    private static SqlFragment column(FeedbackColumn column) {
        return switch (column) {
            case ID -> SqlFragment.of("id::text", Kind.TEXT);
            case CREATED_AT -> SqlFragment.of("created_at", Kind.TIMESTAMP);
            case PAYLOAD -> SqlFragment.of("payload", Kind.JSON);
            case PROJECT_ID, SVC_REF, SVC_USER_ID, CREATOR, FEEDBACK_TYPE, ANNOTATION_REF, RUNNABLE_REF, CALL_REF,
                    TRIGGER_REF, QUEUE_ID -> SqlFragment.of(column.wireName(), Kind.TEXT);
        };
    }

    /** ORDER BY terms for {@code sortBy}; empty when no order was asked for (Weave has no default order). */
    static SqlFragment orderBy(List<SortKey> sortBy) {
        List<SqlFragment> terms = sortBy.stream().map(k -> {
            SqlFragment f = field(k.field());
            return new SqlFragment(f.sql() + (k.direction() == SortOrder.DESC ? " DESC" : " ASC"), f.params(), f.kind());
        }).toList();
        return terms.isEmpty() ? SqlFragment.of("", Kind.NULL) : SqlFragment.join(terms, " ORDER BY ", ", ", "", Kind.NULL);
    }

    /**
     * A boolean SQL condition for {@code expr}; every fragment built on the way is held to {@code limits}, so a query
     * whose SQL would outgrow them is refused before it is built whole.
     *
     * @throws dev.crucible.kernel.refusal.RefusalException naming {@code query} when the SQL would be larger than
     *     {@code limits} allow
     */
    static SqlFragment condition(FeedbackExpr expr, FeedbackSqlLimits limits) {
        SqlFragment f = operand(expr, limits);
        return switch (f.kind()) {
            case BOOL -> f;
            case JSON -> SqlFragment.join(List.of(f), "(", "", " = 'true'::jsonb)", Kind.BOOL);
            case NULL -> SqlFragment.of("FALSE", Kind.BOOL);
            case TEXT, NUMBER, TIMESTAMP -> SqlFragment.join(List.of(f), "(", "", " IS NOT NULL)", Kind.BOOL);
        };
    }

    private static SqlFragment operand(FeedbackExpr expr, FeedbackSqlLimits limits) {
        return limits.check(switch (expr) {
            case FeedbackExpr.Literal l -> literal(l.value());
            case FeedbackExpr.GetField g -> field(g.field());
            case FeedbackExpr.Convert c -> FeedbackConversions.convert(operand(c.input(), limits), c.to());
            case FeedbackExpr.And a -> SqlFragment.join(conditions(a.operands(), limits), "(", " AND ", ")", Kind.BOOL);
            case FeedbackExpr.Or o -> SqlFragment.join(conditions(o.operands(), limits), "(", " OR ", ")", Kind.BOOL);
            case FeedbackExpr.Not n -> SqlFragment.join(List.of(condition(n.operand(), limits)), "(NOT COALESCE(", "",
                    ", FALSE))", Kind.BOOL);
            case FeedbackExpr.Compare c -> FeedbackComparisons.compare(c.op(), operand(c.left(), limits),
                    operand(c.right(), limits));
            case FeedbackExpr.In in -> FeedbackMembership.in(operand(in.needle(), limits),
                    each(in.candidates(), candidate -> operand(candidate, limits), limits),
                    isLeaf(in.needle()));
            case FeedbackExpr.Contains c -> contains(c, limits);
        });
    }

    /** Whether {@code expr} translates to a fragment of constant size (a column, a payload path, a parameter). */
    private static boolean isLeaf(FeedbackExpr expr) {
        return expr instanceof FeedbackExpr.Literal || expr instanceof FeedbackExpr.GetField;
    }

    /** Conditions for {@code operands}, their running total held to {@code limits} as they are built. */
    private static List<SqlFragment> conditions(List<FeedbackExpr> operands, FeedbackSqlLimits limits) {
        return each(operands, operand -> condition(operand, limits), limits);
    }

    /** {@code translate} applied to each of {@code exprs}, the fragments' running total held to {@code limits}. */
    private static List<SqlFragment> each(List<FeedbackExpr> exprs, Function<FeedbackExpr, SqlFragment> translate,
            FeedbackSqlLimits limits) {
        List<SqlFragment> built = new ArrayList<>(exprs.size());
        long chars = 0;
        long params = 0;
        for (FeedbackExpr expr : exprs) {
            SqlFragment f = translate.apply(expr);
            chars += f.sql().length();
            params += f.params().size();
            limits.check(chars, params);
            built.add(f);
        }
        return built;
    }

    private static SqlFragment contains(FeedbackExpr.Contains c, FeedbackSqlLimits limits) {
        SqlFragment input = FeedbackConversions.asText(operand(c.input(), limits));
        SqlFragment substr = FeedbackConversions.asText(operand(c.substr(), limits));
        String fn = c.caseInsensitive() ? "lower" : "";
        return SqlFragment.join(List.of(input, substr), "(strpos(" + fn + "(", "), " + fn + "(", ")) > 0)", Kind.BOOL);
    }

    private static SqlFragment literal(Object value) {
        return switch (value) {
            case null -> SqlFragment.of("NULL", Kind.NULL);
            case String s -> SqlFragment.of("CAST(? AS text)", Kind.TEXT, s);
            case Boolean b -> SqlFragment.of("CAST(? AS boolean)", Kind.BOOL, b);
            case Long n -> SqlFragment.of("CAST(? AS numeric)", Kind.NUMBER, n);
            case Double d -> SqlFragment.of("CAST(? AS numeric)", Kind.NUMBER, java.math.BigDecimal.valueOf(d));
            default -> throw new IllegalArgumentException("unexpected literal " + value.getClass());
        };
    }
}
