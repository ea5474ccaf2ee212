package dev.crucible.adapters.persistence.health;

import dev.crucible.application.health.Probe;
import io.micronaut.jdbc.DataSourceResolver;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/** Checks that PostgreSQL answers a query within a few seconds. */
@Singleton
@Named("database")
public class DatabaseProbe implements Probe {

    private static final int TIMEOUT_SECONDS = 3;
    private final DataSource dataSource;

    DatabaseProbe(DataSource dataSource, DataSourceResolver resolver) {
        // The injected data source only hands out connections inside a transaction; the probe wants the pool.
        this.dataSource = resolver.resolve(dataSource);
    }

    @Override
    public void probe() throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            if (!c.isValid(TIMEOUT_SECONDS)) {
                throw new SQLException("database did not answer within " + TIMEOUT_SECONDS + " s");
            }
        } catch (SQLException e) {
            throw new SQLException("database is unreachable: " + e.getMessage(), e);
        }
    }
}
