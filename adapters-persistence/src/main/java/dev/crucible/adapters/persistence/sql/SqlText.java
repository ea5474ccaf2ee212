package dev.crucible.adapters.persistence.sql;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/** A statement built clause by clause, each clause's parameters added with it, for filters that are optional. */
public final class SqlText {

    private final StringBuilder text;
    private final List<Object> params = new ArrayList<>();

    /** A statement that starts with {@code head}, whose one parameter is {@code param}. */
    public SqlText(String head, Object param) {
        this.text = new StringBuilder(head);
        params.add(param);
    }

    /** Appends {@code clause}, whose parameters are {@code first} and then {@code more}. */
    public SqlText add(String clause, Object first, Object... more) {
        text.append(clause);
        params.add(first);
        Collections.addAll(params, more);
        return this;
    }

    /** Appends {@code clause} with {@code value} as its one parameter when there is a value. */
    public SqlText addIfPresent(String clause, Optional<?> value) {
        value.ifPresent(v -> add(clause, v));
        return this;
    }

    public String text() {
        return text.toString();
    }

    public Object[] params() {
        return params.toArray();
    }
}
