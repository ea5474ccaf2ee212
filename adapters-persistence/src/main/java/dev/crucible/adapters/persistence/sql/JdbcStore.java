package dev.crucible.adapters.persistence.sql;

import java.util.List;
import java.util.Optional;

/**
 * What a store that reads and writes {@code jsonb} columns holds: its statements ({@link Sql}) and their JSON
 * ({@link Json}), with the reads of rows that need that JSON to become domain values. Neither this class nor a store
 * extending it is final: Micronaut applies a store's {@code @Transactional} by subclassing it.
 */
public abstract class JdbcStore {

    /** A row whose JSON columns are read into its domain value by the store's {@link Json}. */
    public interface JsonRow<T> {
        T toDomain(Json json);
    }

    protected final Sql sql;
    protected final Json json;

    protected JdbcStore(Sql sql, Json json) {
        this.sql = sql;
        this.json = json;
    }

    /** The domain values of the rows {@code text} selects, in its order. */
    protected <T> List<T> rows(String text, Sql.RowMapper<? extends JsonRow<T>> read, Object... params) {
        return sql.query(text, read, params).stream().map(row -> row.toDomain(json)).toList();
    }

    /** The domain value of the first row {@code text} selects, if any. */
    protected <T> Optional<T> row(String text, Sql.RowMapper<? extends JsonRow<T>> read, Object... params) {
        return sql.queryOne(text, read, params).map(row -> row.toDomain(json));
    }
}
