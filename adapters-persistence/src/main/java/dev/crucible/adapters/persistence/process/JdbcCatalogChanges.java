package dev.crucible.adapters.persistence.process;

import dev.crucible.adapters.persistence.sql.Sql;
import dev.crucible.application.process.CatalogChange;
import dev.crucible.application.process.CatalogChanges;
import dev.crucible.domain.model.ModelId;
import io.micronaut.context.annotation.Value;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.postgresql.PGConnection;

/**
 * The catalog change log in {@code catalog_changes}, written by triggers on {@code checkpoints} and {@code models}
 * (V15), which also {@code NOTIFY crucible_catalog}. The wake-ups arrive on a dedicated connection of its own, outside
 * the pool ({@link PGConnection#getNotifications(int)} with a timeout); when it breaks it is reopened on a later
 * {@link #await}, and meanwhile {@code await} just sleeps, which makes the follower poll.
 */
@Singleton
class JdbcCatalogChanges implements CatalogChanges {

    static final String CHANNEL = "crucible_catalog";
    private static final Logger LOG = Logger.getLogger(JdbcCatalogChanges.class.getName());

    private final Sql sql;
    private final String url;
    private final String user;
    private final String password;
    private Connection listening;
    private volatile boolean closed;

    JdbcCatalogChanges(Sql sql, @Value("${datasources.default.url}") String url,
            @Value("${datasources.default.username:postgres}") String user,
            @Value("${datasources.default.password:}") String password) {
        this.sql = sql;
        this.url = url;
        this.user = user;
        this.password = password;
    }

    @Override
    @Transactional
    public long latest() {
        return sql.queryOne("SELECT coalesce(max(seq), 0) AS seq FROM catalog_changes", rs -> rs.getLong("seq"))
                .orElse(0L);
    }

    @Override
    @Transactional
    public List<CatalogChange> after(long seq, int limit) {
        return sql.query("SELECT seq, model_id, step, kind FROM catalog_changes WHERE seq > ? ORDER BY seq LIMIT ?",
                JdbcCatalogChanges::read, seq, limit);
    }

    @Override
    @Transactional
    public int prune(Instant before) {
        return sql.update("DELETE FROM catalog_changes WHERE created_at < ?", before);
    }

    @Override
    public boolean await(Duration limit) throws InterruptedException {
        int millis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, limit.toMillis()));
        try {
            Connection connection = listening();
            var notifications = connection.unwrap(PGConnection.class).getNotifications(millis);
            return notifications != null && notifications.length > 0;
        } catch (SQLException e) {
            if (closed) {
                return false;
            }
            LOG.log(Level.WARNING, "the catalog notification channel is down; polling until it reconnects", e);
            closeQuietly();
            Thread.sleep(millis);
            return false;
        }
    }

    private synchronized Connection listening() throws SQLException {
        if (closed) {
            throw new SQLException("closed");
        }
        if (listening == null || listening.isClosed()) {
            Connection connection = DriverManager.getConnection(url, user, password);
            try (Statement listen = connection.createStatement()) {
                listen.execute("LISTEN " + CHANNEL);
            }
            listening = connection;
        }
        return listening;
    }

    private synchronized void closeQuietly() {
        if (listening != null) {
            try {
                listening.close();
            } catch (SQLException ignored) {
                // broken already; a new one is opened on the next wait
            }
            listening = null;
        }
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly();
    }

    private static CatalogChange read(ResultSet rs) throws SQLException {
        int step = rs.getInt("step");
        OptionalInt maybeStep = rs.wasNull() ? OptionalInt.empty() : OptionalInt.of(step);
        return new CatalogChange(rs.getLong("seq"), new ModelId(Sql.uuid(rs, "model_id")), maybeStep,
                CatalogChange.Kind.valueOf(rs.getString("kind").toUpperCase(Locale.ROOT)));
    }
}
