package dev.crucible.server.support;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.UUID;

/**
 * One real PostgreSQL per test JVM (zonky's bundled binaries), and a fresh database per caller so that test
 * classes never see each other's rows.
 */
public final class TestDatabase {

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

    /** Creates an empty database and returns its JDBC URL (user postgres, no password). */
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
