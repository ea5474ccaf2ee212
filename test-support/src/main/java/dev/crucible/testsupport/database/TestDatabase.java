package dev.crucible.testsupport.database;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * One real PostgreSQL per test JVM (zonky's bundled binaries, on a free port and a data folder of its own, so that
 * parallel test JVMs never share one), and a fresh database per caller so that test classes never see each other's
 * rows. {@link #freshDatabase()} is empty: the caller's server (or store context) runs the Flyway migrations on it,
 * as {@code crucible serve} does. {@link #freshCopyOf} copies a template the JVM prepared once (the migrated schema),
 * for the many tests that only need a server on a fresh database, not its first migration.
 */
public final class TestDatabase {

    /** The superuser every fresh database belongs to; it has no password. */
    public static final String USER = "postgres";

    private static EmbeddedPostgres postgres;
    /** The prepared templates of this JVM: database name by template name. */
    private static final Map<String, String> TEMPLATES = new HashMap<>();

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
        return create(uniqueName("test_"), "");
    }

    /**
     * Creates a database that is a copy of template {@code template} and returns its JDBC URL. The first call in this
     * JVM for a template creates it empty and has {@code prepare} fill it, given its JDBC URL (say, run the
     * migrations); every call then copies it ({@code CREATE DATABASE … TEMPLATE}), which costs a file copy instead of
     * doing that work again. {@code prepare} must close every connection it opened to the template.
     *
     * @param template a name of lower-case letters and underscores, the same for every caller that prepares alike
     */
    public static String freshCopyOf(String template, Consumer<String> prepare) {
        if (!template.matches("[a-z_]+")) {
            throw new IllegalArgumentException("a template name is lower-case letters and underscores: " + template);
        }
        String source;
        synchronized (TEMPLATES) {
            source = TEMPLATES.get(template);
            if (source == null) {
                String made = create(uniqueName("template_" + template + "_"), "");
                prepare.accept(made);
                source = made.substring(made.lastIndexOf('/') + 1);
                TEMPLATES.put(template, source);
            }
        }
        return create(uniqueName("test_"), " TEMPLATE " + source);
    }

    private static String uniqueName(String prefix) {
        return prefix + UUID.randomUUID().toString().replace("-", "");
    }

    private static String create(String name, String clause) {
        try (Connection c = server().getPostgresDatabase().getConnection()) {
            c.createStatement().execute("CREATE DATABASE " + name + clause);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create test database", e);
        }
        return "jdbc:postgresql://127.0.0.1:" + server().getPort() + "/" + name;
    }
}
