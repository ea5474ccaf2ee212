package dev.crucible.adapters.persistence.feedback;

import dev.crucible.adapters.persistence.feedback.SqlFragment.Kind;
import dev.crucible.domain.feedback.FeedbackExpr.ConvertTo;
import java.util.List;

/**
 * Type conversions of query values ({@code $convert}, and the implicit ones a comparison needs). A value that
 * cannot be converted becomes SQL NULL, never an error: a filter over mixed rows must not fail the query.
 */
final class FeedbackConversions {

    /**
     * Text that is a number PostgreSQL's {@code numeric} can hold: its input refuses an exponent beyond 1000, which
     * would be an SQL error (a 500) rather than a value that is not a number.
     */
    private static final String NUMBER_TEXT = "'^\\s*[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d{1,3})?\\s*$'";
    /** {@link #NUMBER_TEXT} with the number, without the blanks around it, as its one capturing group. */
    private static final String NUMBER_CAPTURE = "'^\\s*([-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d{1,3})?)\\s*$'";

    private FeedbackConversions() {
    }

    static SqlFragment convert(SqlFragment value, ConvertTo to) {
        return switch (to) {
            case DOUBLE -> asNumber(value);
            case INT -> wrap(asNumber(value), "trunc(", ")", Kind.NUMBER);
            case STRING -> asText(value);
            case BOOL -> asBool(value);
            case EXISTS -> value.kind() == Kind.JSON
                    ? new SqlFragment("(" + value.sql() + " IS NOT NULL AND jsonb_typeof(" + value.sql() + ") <> 'null')",
                            concat(value, value), Kind.BOOL)
                    : wrap(value, "(", " IS NOT NULL)", Kind.BOOL);
        };
    }

    /** The value as text: a JSON string unquoted, other JSON values as JSON text. */
    static SqlFragment asText(SqlFragment value) {
        return switch (value.kind()) {
            case JSON -> wrap(value, "(", " #>> '{}')", Kind.TEXT);
            case TEXT -> value;
            case NULL -> SqlFragment.of("CAST(NULL AS text)", Kind.TEXT);
            case NUMBER, BOOL -> wrap(value, "CAST(", " AS text)", Kind.TEXT);
            case TIMESTAMP -> wrap(value, "to_char(", " AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')", Kind.TEXT);
        };
    }

    /** The value as a number: JSON numbers, numeric strings, booleans as 1/0, timestamps as epoch seconds. */
    static SqlFragment asNumber(SqlFragment value) {
        return switch (value.kind()) {
            case NUMBER -> value;
            case NULL -> SqlFragment.of("CAST(NULL AS numeric)", Kind.NUMBER);
            case BOOL -> wrap(value, "(CASE WHEN ", " THEN 1 ELSE 0 END)::numeric", Kind.NUMBER);
            case TIMESTAMP -> wrap(value, "extract(epoch FROM ", ")", Kind.NUMBER);
            case JSON -> {
                SqlFragment text = asText(value);
                yield new SqlFragment("(CASE WHEN jsonb_typeof(" + value.sql() + ") = 'number' THEN CAST(" + text.sql()
                        + " AS numeric) WHEN jsonb_typeof(" + value.sql() + ") = 'string' AND " + text.sql() + " ~ "
                        + NUMBER_TEXT + " THEN CAST(" + text.sql() + " AS numeric) END)",
                        concat(value, text, value, text, text), Kind.NUMBER);
            }
            // substring(... FROM pattern) is the number's text, or NULL when the text is not a number: the value
            // appears once, so nested conversions grow the SQL by a constant, never by doubling
            case TEXT -> wrap(value, "CAST(substring(", " FROM " + NUMBER_CAPTURE + ") AS numeric)", Kind.NUMBER);
        };
    }

    /** The value as a boolean: JSON booleans, 'true'/'false' text, non-zero numbers. */
    static SqlFragment asBool(SqlFragment value) {
        return switch (value.kind()) {
            case BOOL -> value;
            case NULL -> SqlFragment.of("CAST(NULL AS boolean)", Kind.BOOL);
            case NUMBER -> wrap(value, "(", " <> 0)", Kind.BOOL);
            case TIMESTAMP -> wrap(value, "(", " IS NOT NULL)", Kind.BOOL);
            case JSON -> new SqlFragment("(CASE WHEN jsonb_typeof(" + value.sql() + ") = 'boolean' THEN CAST("
                    + value.sql() + " #>> '{}' AS boolean) END)", concat(value, value), Kind.BOOL);
            // a simple CASE reads its operand once (see TEXT in asNumber)
            case TEXT -> wrap(value, "(CASE lower(", ") WHEN 'true' THEN TRUE WHEN 'false' THEN FALSE END)", Kind.BOOL);
        };
    }

    private static SqlFragment wrap(SqlFragment value, String open, String close, Kind kind) {
        return new SqlFragment(open + value.sql() + close, value.params(), kind);
    }

    private static List<Object> concat(SqlFragment... parts) {
        List<Object> all = new java.util.ArrayList<>();
        for (SqlFragment p : parts) {
            all.addAll(p.params());
        }
        return all;
    }
}
