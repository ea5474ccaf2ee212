package dev.crucible.adapters.persistence.feedback;

import java.util.ArrayList;
import java.util.List;

/**
 * A piece of SQL with its positional parameters and what kind of value it yields, built from a feedback query.
 *
 * @param sql the SQL text, with {@code ?} placeholders
 * @param params the values of the placeholders, in order
 * @param kind the type of value the SQL yields
 */
record SqlFragment(String sql, List<Object> params, Kind kind) {

    /** What an expression yields: a JSON value (payload paths), or a plain SQL type. */
    enum Kind { JSON, TEXT, NUMBER, BOOL, TIMESTAMP, NULL }

    SqlFragment {
        params = List.copyOf(params);
    }

    static SqlFragment of(String sql, Kind kind, Object... params) {
        return new SqlFragment(sql, List.of(params), kind);
    }

    /** Joins fragments with {@code separator} inside {@code open}/{@code close}, yielding {@code kind}. */
    static SqlFragment join(List<SqlFragment> parts, String open, String separator, String close, Kind kind) {
        StringBuilder sql = new StringBuilder(open);
        List<Object> params = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            if (i > 0) {
                sql.append(separator);
            }
            sql.append(parts.get(i).sql());
            params.addAll(parts.get(i).params());
        }
        return new SqlFragment(sql.append(close).toString(), params, kind);
    }
}
