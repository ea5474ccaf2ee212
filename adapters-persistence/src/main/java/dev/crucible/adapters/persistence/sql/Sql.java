package dev.crucible.adapters.persistence.sql;

import io.micronaut.data.jdbc.runtime.JdbcOperations;
import jakarta.inject.Singleton;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Plain SQL over Micronaut Data's transaction-aware {@link JdbcOperations}: positional parameters bound by
 * type, rows mapped by a {@link RowMapper}. Runs inside the caller's transaction when there is one.
 */
@Singleton
public final class Sql {

    /** Maps the current row of a result set. */
    @FunctionalInterface
    public interface RowMapper<T> {
        T map(ResultSet rs) throws SQLException;
    }

    private final JdbcOperations jdbc;

    public Sql(JdbcOperations jdbc) {
        this.jdbc = jdbc;
    }

    public <T> List<T> query(String sql, RowMapper<T> mapper, Object... params) {
        return jdbc.prepareStatement(sql, ps -> {
            bind(ps, params);
            try (ResultSet rs = ps.executeQuery()) {
                List<T> rows = new ArrayList<>();
                while (rs.next()) {
                    rows.add(mapper.map(rs));
                }
                return rows;
            }
        });
    }

    public <T> Optional<T> queryOne(String sql, RowMapper<T> mapper, Object... params) {
        List<T> rows = query(sql, mapper, params);
        return rows.isEmpty() ? Optional.empty() : Optional.of(rows.getFirst());
    }

    public int update(String sql, Object... params) {
        return jdbc.prepareStatement(sql, ps -> {
            bind(ps, params);
            return ps.executeUpdate();
        });
    }

    /**
     * Takes PostgreSQL's transaction-level advisory lock named {@code name} (hashed with {@code hashtext}), waiting
     * while another transaction, in any process, holds it; it is released when the caller's transaction ends. Names
     * are {@code <table>/<scope>}, so that locks of different stores never meet.
     */
    public void lockUntilCommit(String name) {
        query("SELECT pg_advisory_xact_lock(hashtext(?))", rs -> 0, name);
    }

    private static void bind(PreparedStatement ps, Object... params) throws SQLException {
        for (int i = 0; i < params.length; i++) {
            Object p = params[i];
            switch (p) {
                case Instant instant -> ps.setTimestamp(i + 1, Timestamp.from(instant));
                case UUID uuid -> ps.setObject(i + 1, uuid);
                case null -> ps.setObject(i + 1, null);
                default -> ps.setObject(i + 1, p);
            }
        }
    }

    /** Reads a nullable timestamp column. */
    public static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp ts = rs.getTimestamp(column);
        return ts == null ? null : ts.toInstant();
    }

    public static UUID uuid(ResultSet rs, String column) throws SQLException {
        return rs.getObject(column, UUID.class);
    }
}
