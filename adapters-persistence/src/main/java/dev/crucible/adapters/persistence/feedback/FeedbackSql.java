package dev.crucible.adapters.persistence.feedback;

import dev.crucible.adapters.persistence.feedback.SqlFragment.Kind;
import dev.crucible.domain.paging.SortOrder;
import dev.crucible.domain.feedback.FeedbackColumn;
import dev.crucible.domain.feedback.FeedbackExpr;
import dev.crucible.domain.feedback.FeedbackField;
import dev.crucible.domain.feedback.SortKey;
import java.util.List;

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

    /** A boolean SQL condition for {@code expr}. */
    static SqlFragment condition(FeedbackExpr expr) {
        SqlFragment f = operand(expr);
        return switch (f.kind()) {
            case BOOL -> f;
            case JSON -> SqlFragment.join(List.of(f), "(", "", " = 'true'::jsonb)", Kind.BOOL);
            case NULL -> SqlFragment.of("FALSE", Kind.BOOL);
            case TEXT, NUMBER, TIMESTAMP -> SqlFragment.join(List.of(f), "(", "", " IS NOT NULL)", Kind.BOOL);
        };
    }

    private static SqlFragment operand(FeedbackExpr expr) {
        return switch (expr) {
            case FeedbackExpr.Literal l -> literal(l.value());
            case FeedbackExpr.GetField g -> field(g.field());
            case FeedbackExpr.Convert c -> FeedbackConversions.convert(operand(c.input()), c.to());
            case FeedbackExpr.And a -> SqlFragment.join(a.operands().stream().map(FeedbackSql::condition).toList(),
                    "(", " AND ", ")", Kind.BOOL);
            case FeedbackExpr.Or o -> SqlFragment.join(o.operands().stream().map(FeedbackSql::condition).toList(),
                    "(", " OR ", ")", Kind.BOOL);
            case FeedbackExpr.Not n -> SqlFragment.join(List.of(condition(n.operand())), "(NOT COALESCE(", "", ", FALSE))",
                    Kind.BOOL);
            case FeedbackExpr.Compare c -> FeedbackComparisons.compare(c.op(), operand(c.left()), operand(c.right()));
            case FeedbackExpr.In in -> in.candidates().isEmpty() ? SqlFragment.of("FALSE", Kind.BOOL)
                    : SqlFragment.join(in.candidates().stream().map(candidate -> FeedbackComparisons.compare(
                            FeedbackExpr.Comparison.EQ, operand(in.needle()), operand(candidate))).toList(),
                            "(", " OR ", ")", Kind.BOOL);
            case FeedbackExpr.Contains c -> contains(c);
        };
    }

    private static SqlFragment contains(FeedbackExpr.Contains c) {
        SqlFragment input = FeedbackConversions.asText(operand(c.input()));
        SqlFragment substr = FeedbackConversions.asText(operand(c.substr()));
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
