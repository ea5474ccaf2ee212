package dev.crucible.adapters.persistence.feedback;

import dev.crucible.adapters.persistence.feedback.SqlFragment.Kind;
import dev.crucible.domain.feedback.FeedbackExpr.Comparison;
import java.util.List;

/**
 * {@code $eq}, {@code $gt}, {@code $gte}, {@code $lt}, {@code $lte} between two query values. The side with a
 * definite type decides how the other side is read: a payload value compared with a number is read as a
 * JSON number (only), with a boolean as a JSON boolean, with a string as a JSON string; {@code created_at}
 * compared with a string compares ISO-8601 text, with a number compares epoch seconds. {@code $eq null}
 * matches absent and null values.
 */
final class FeedbackComparisons {

    private FeedbackComparisons() {
    }

    static SqlFragment compare(Comparison op, SqlFragment left, SqlFragment right) {
        if (left.kind() == Kind.NULL || right.kind() == Kind.NULL) {
            SqlFragment other = left.kind() == Kind.NULL ? right : left;
            return op == Comparison.EQ ? isNull(other) : SqlFragment.of("FALSE", Kind.BOOL);
        }
        Kind kind = commonKind(left.kind(), right.kind());
        return binary(op, read(left, kind), read(right, kind));
    }

    /**
     * {@code $eq} of {@code value} with any of {@code candidates}, which are all of one kind and not NULL, naming
     * {@code value} once: {@code value = ANY(ARRAY[...])}, each side read as {@link #compare} reads it.
     */
    static SqlFragment equalsAny(SqlFragment value, List<SqlFragment> candidates) {
        Kind kind = commonKind(value.kind(), candidates.getFirst().kind());
        SqlFragment array = SqlFragment.join(candidates.stream().map(c -> read(c, kind)).toList(), "ARRAY[", ", ", "]",
                kind);
        return SqlFragment.join(List.of(read(value, kind), array), "COALESCE((", " = ANY(", ")), FALSE)", Kind.BOOL);
    }

    /** The type both sides are read as. */
    private static Kind commonKind(Kind left, Kind right) {
        if (left == right) {
            return left;
        }
        // a payload value is read as the other side's type, but a timestamp is compared as its ISO-8601 text: JSON
        // has no timestamps, and a payload string read as one would meet created_at with text (an SQL error)
        if (left == Kind.JSON) {
            return right == Kind.TIMESTAMP ? Kind.TEXT : right;
        }
        if (right == Kind.JSON) {
            return left == Kind.TIMESTAMP ? Kind.TEXT : left;
        }
        if (left == Kind.TIMESTAMP || right == Kind.TIMESTAMP) {
            return left == Kind.NUMBER || right == Kind.NUMBER ? Kind.NUMBER : Kind.TEXT;
        }
        return left == Kind.NUMBER && right == Kind.BOOL || left == Kind.BOOL && right == Kind.NUMBER ? Kind.NUMBER
                : Kind.TEXT;
    }

    /** Reads {@code value} as {@code kind}; a payload value of another JSON type reads as NULL (no match). */
    private static SqlFragment read(SqlFragment value, Kind kind) {
        if (value.kind() == kind) {
            return value;
        }
        if (value.kind() == Kind.JSON) {
            String type = switch (kind) {
                case NUMBER -> "number";
                case BOOL -> "boolean";
                default -> "string";
            };
            SqlFragment converted = switch (kind) {
                case NUMBER -> FeedbackConversions.asNumber(value);
                case BOOL -> FeedbackConversions.asBool(value);
                default -> FeedbackConversions.asText(value);
            };
            List<Object> params = new java.util.ArrayList<>(value.params());
            params.addAll(converted.params());
            return new SqlFragment("(CASE WHEN jsonb_typeof(" + value.sql() + ") = '" + type + "' THEN " + converted.sql()
                    + " END)", params, kind);
        }
        return switch (kind) {
            case NUMBER -> FeedbackConversions.asNumber(value);
            case BOOL -> FeedbackConversions.asBool(value);
            default -> FeedbackConversions.asText(value);
        };
    }

    private static SqlFragment binary(Comparison op, SqlFragment left, SqlFragment right) {
        String operator = switch (op) {
            case EQ -> " = ";
            case GT -> " > ";
            case GTE -> " >= ";
            case LT -> " < ";
            case LTE -> " <= ";
        };
        return SqlFragment.join(List.of(left, right), "COALESCE((", operator, "), FALSE)", Kind.BOOL);
    }

    private static SqlFragment isNull(SqlFragment value) {
        if (value.kind() == Kind.JSON) {
            return new SqlFragment("(" + value.sql() + " IS NULL OR jsonb_typeof(" + value.sql() + ") = 'null')",
                    concat(value, value), Kind.BOOL);
        }
        return SqlFragment.join(List.of(value), "(", "", " IS NULL)", Kind.BOOL);
    }

    private static List<Object> concat(SqlFragment a, SqlFragment b) {
        List<Object> all = new java.util.ArrayList<>(a.params());
        all.addAll(b.params());
        return all;
    }
}
