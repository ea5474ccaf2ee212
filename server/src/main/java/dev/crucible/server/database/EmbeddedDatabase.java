package dev.crucible.server.database;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real PostgreSQL started from the bundled binaries in {@code <data-dir>/postgres}, kept across restarts.
 * When a Crucible server already runs one on that folder, its server is reused instead of starting a second.
 */
public final class EmbeddedDatabase implements AutoCloseable {

    public static final String DATABASE = "crucible";
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedDatabase.class);

    private final EmbeddedPostgres postgres;
    private final int port;

    private EmbeddedDatabase(EmbeddedPostgres postgres, int port) {
        this.postgres = postgres;
        this.port = port;
    }

    /** Starts (or joins) the embedded server for {@code dataDir} and makes sure the {@code crucible} database exists. */
    public static EmbeddedDatabase open(Path dataDir) {
        Path folder = dataDir.toAbsolutePath().resolve("postgres");
        Optional<Integer> running = RunningPostmaster.port(folder);
        EmbeddedDatabase db;
        if (running.isPresent()) {
            LOG.info("Using the embedded PostgreSQL already running on {} (port {})", folder, running.get());
            db = new EmbeddedDatabase(null, running.get());
        } else {
            try {
                Files.createDirectories(folder);
                EmbeddedPostgres pg = EmbeddedPostgres.builder().setDataDirectory(folder).setCleanDataDirectory(false)
                        .start();
                LOG.info("Started embedded PostgreSQL in {} on port {}", folder, pg.getPort());
                db = new EmbeddedDatabase(pg, pg.getPort());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start embedded PostgreSQL in " + folder, e);
            }
        }
        db.createDatabaseIfMissing();
        return db;
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + DATABASE;
    }

    public String user() {
        return "postgres";
    }

    private void createDatabaseIfMissing() {
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/postgres", user(), "")) {
            boolean exists = c.createStatement().executeQuery(
                    "SELECT 1 FROM pg_database WHERE datname = '" + DATABASE + "'").next();
            if (!exists) {
                c.createStatement().execute("CREATE DATABASE " + DATABASE);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot prepare database '" + DATABASE + "': " + e.getMessage(), e);
        }
    }

    /** Stops the server if this process started it. */
    @Override
    public void close() {
        if (postgres != null) {
            try {
                postgres.close();
            } catch (IOException e) {
                LOG.warn("embedded PostgreSQL did not stop cleanly: {}", e.getMessage());
            }
        }
    }

    /** Reads {@code postmaster.pid}: its first line is the pid, its fourth the port. */
    static final class RunningPostmaster {

        private RunningPostmaster() {
        }

        static Optional<Integer> port(Path folder) {
            Path pidFile = folder.resolve("postmaster.pid");
            if (!Files.isRegularFile(pidFile)) {
                return Optional.empty();
            }
            try {
                List<String> lines = Files.readAllLines(pidFile);
                long pid = Long.parseLong(lines.get(0).strip());
                boolean alive = ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
                return alive && lines.size() > 3 ? Optional.of(Integer.parseInt(lines.get(3).strip())) : Optional.empty();
            } catch (IOException | RuntimeException e) {
                return Optional.empty();
            }
        }
    }
}
