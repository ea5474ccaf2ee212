package dev.crucible.adapters.persistence.feedback;

import dev.crucible.kernel.refusal.RefusalException;

/**
 * How large the SQL of one feedback query may grow: characters of SQL text and bind parameters. The parser bounds
 * a query's terms, but not what they expand to, so the translation checks every fragment it builds against these
 * and refuses the query (naming {@code query} and the setting) as soon as one is past them.
 *
 * @param maxChars the most characters of SQL ({@code crucible.feedback.max-query-sql-chars})
 * @param maxParams the most bind parameters ({@code crucible.feedback.max-query-params}); PostgreSQL's protocol
 *     carries at most {@value #PROTOCOL_MAX_PARAMS}
 */
record FeedbackSqlLimits(long maxChars, int maxParams) {

    static final String MAX_CHARS_SETTING = "crucible.feedback.max-query-sql-chars";
    static final String MAX_PARAMS_SETTING = "crucible.feedback.max-query-params";
    /** The most parameters one statement may bind: the extended query protocol counts them in 16 bits. */
    static final int PROTOCOL_MAX_PARAMS = 32_767;

    FeedbackSqlLimits {
        if (maxChars < 1) {
            throw new IllegalArgumentException(MAX_CHARS_SETTING + " must be positive, got " + maxChars);
        }
        if (maxParams < 1 || maxParams > PROTOCOL_MAX_PARAMS) {
            throw new IllegalArgumentException(MAX_PARAMS_SETTING + " must be in [1, " + PROTOCOL_MAX_PARAMS
                    + "], got " + maxParams);
        }
    }

    /** {@code fragment}, when it is within the limits. */
    SqlFragment check(SqlFragment fragment) {
        check(fragment.sql().length(), fragment.params().size());
        return fragment;
    }

    /** Refuses a query whose SQL so far has {@code chars} characters and {@code params} parameters, past a limit. */
    void check(long chars, long params) {
        if (chars > maxChars) {
            throw RefusalException.invalid("query", "query expands to more than " + maxChars
                    + " characters of SQL (" + MAX_CHARS_SETTING + "); simplify it or split it into several queries");
        }
        if (params > maxParams) {
            throw RefusalException.invalid("query", "query expands to more than " + maxParams
                    + " SQL parameters (" + MAX_PARAMS_SETTING + "); simplify it or split it into several queries");
        }
    }
}
