package dev.crucible.testsupport.database;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.UUID;

/**
 * One real PostgreSQL per test JVM (zonky's bundled binaries, on a free port and a data folder of its own, so that
 * parallel test JVMs never share one), and a fresh database per caller so that test classes never see each other's
 * rows. The database is empty: the caller's server (or store context) runs the Flyway migrations on it, as
 * {@code crucible serve} does.
 */
public final class TestDatabase {

    /** The superuser every fresh database belongs to; it has no password. */
    public static final String USER = "postgres";

    private static EmbeddedPostgres postgres;

    private TestDatabase() {
    }

    private static synchronized EmbeddedPostgres server() {
        if (postgres == null) {
            try {
                postgres = EmbeddedPostgres.builder().start();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start the test PostgreSQL", e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    postgres.close();
                } catch (IOException ignored) {
                    // the JVM is exiting anyway
                }
            }));
        }
        return postgres;
    }

    /** Creates an empty database and returns its JDBC URL (user {@value #USER}, no password). */
    public static String freshDatabase() {
        String name = "test_" + UUID.randomUUID().toString().replace("-", "");
        try (Connection c = server().getPostgresDatabase().getConnection()) {
            c.createStatement().execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create test database", e);
        }
        return "jdbc:postgresql://127.0.0.1:" + server().getPort() + "/" + name;
    }
}
