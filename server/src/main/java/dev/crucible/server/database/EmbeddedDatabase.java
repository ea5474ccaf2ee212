package dev.crucible.server.database;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real PostgreSQL started from the bundled binaries in {@code <data-dir>/postgres}, kept across restarts.
 * When a Crucible server already runs one on that folder, its server is reused instead of starting a second.
 *
 * <p>Only its owner may use it: the data directory is made 0700, the superuser has a random password kept in
 * {@code <data-dir>/}{@value #PASSWORD_FILE} (0600), and PostgreSQL asks every client for it (SCRAM-SHA-256).
 * A data directory made by an earlier Crucible (no password, "trust" logins) is upgraded on start.
 */
public final class EmbeddedDatabase implements AutoCloseable {

    public static final String DATABASE = "crucible";
    /** The superuser's password, in the data directory. */
    public static final String PASSWORD_FILE = "postgres-password";
    static final String USER = "postgres";
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedDatabase.class);
    static final Duration SUPERVISION_INTERVAL = Duration.ofMillis(500);
    static final Duration MAX_RESTART_PAUSE = Duration.ofSeconds(5);

    private final EmbeddedPostgres postgres;
    private final int port;
    private final String password;
    private final Supervisor supervisor;

    private EmbeddedDatabase(EmbeddedPostgres postgres, int port, String password, Supervisor supervisor) {
        this.postgres = postgres;
        this.port = port;
        this.password = password;
        this.supervisor = supervisor;
    }

    /** {@link #open(Path, Durability)} with PostgreSQL's durable defaults. */
    public static EmbeddedDatabase open(Path dataDir) {
        return open(dataDir, Durability.DURABLE);
    }

    /**
     * Starts (or joins) the embedded server for {@code dataDir} and makes sure the {@code crucible} database exists.
     * {@code durability} applies to a server this call starts; a joined server keeps what its starter chose.
     */
    public static EmbeddedDatabase open(Path dataDir, Durability durability) {
        Path root = dataDir.toAbsolutePath().normalize();
        PrivateFiles.directory(root);
        Path folder = root.resolve("postgres");
        Path passwordFile = root.resolve(PASSWORD_FILE);
        Optional<Integer> running = RunningPostmaster.port(folder);
        EmbeddedDatabase db;
        if (running.isPresent()) {
            LOG.info("Using the embedded PostgreSQL already running on {} (port {})", folder, running.get());
            // A server started by an earlier Crucible still lets everyone in ("trust") and ignores the password.
            db = new EmbeddedDatabase(null, running.get(), Files.exists(passwordFile) ? PrivateFiles.secret(passwordFile) : "",
                    null);
        } else {
            db = start(folder, PrivateFiles.secret(passwordFile), passwordFile, durability);
        }
        db.createDatabaseIfMissing();
        return db;
    }

    private static EmbeddedDatabase start(Path folder, String password, Path passwordFile, Durability durability) {
        try {
            Files.createDirectories(folder);
            boolean fresh = !Files.exists(folder.resolve("postgresql.conf"));
            if (!fresh && !ClientAuthentication.current(folder)) {
                upgrade(folder, password);
            }
            EmbeddedPostgres.Builder builder = durability.apply(builder(folder, password))
                    .setDataDirectoryCustomizer(dir -> writeRules(dir.toPath()));
            if (fresh) {
                // zonky's initdb passes "-A trust"; these options come after it on initdb's command line and win,
                // so the superuser has its password from the first moment PostgreSQL runs.
                builder.setLocaleConfig("auth", "scram-sha-256").setLocaleConfig("pwfile", passwordFile.toString());
            }
            EmbeddedPostgres pg = builder.start();
            LOG.info("Started embedded PostgreSQL in {} on port {}", folder, pg.getPort());
            if (durability != Durability.DURABLE) {
                LOG.warn("UNSAFE: the embedded PostgreSQL runs without fsync and synchronous commits ({}): answered writes "
                        + "can be lost on a crash. For throwaway data only.", durability);
            }
            Supervisor supervisor = new Supervisor("embedded PostgreSQL",
                    new EmbeddedPostmaster(folder, folder.resolveSibling("postgres.log")), SUPERVISION_INTERVAL,
                    MAX_RESTART_PAUSE);
            return new EmbeddedDatabase(pg, pg.getPort(), password, supervisor.start());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start embedded PostgreSQL in " + folder, e);
        }
    }

    /** A data directory from before passwords: start it as it is, set the password, then require it. */
    private static void upgrade(Path folder, String password) throws IOException {
        LOG.info("Upgrading the embedded PostgreSQL in {}: its superuser gets a password and logins require it", folder);
        // Its "trust" rules let this process in; durable, so the password is on disk before the rules need it.
        EmbeddedPostgres old = Durability.DURABLE.apply(builder(folder, password)).start();
        try {
            ClientAuthentication.setPassword(old.getPort(), USER, password);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot set the embedded database's password: " + e.getMessage(), e);
        } finally {
            old.close();
        }
        ClientAuthentication.write(folder);
    }

    private static EmbeddedPostgres.Builder builder(Path folder, String password) {
        return EmbeddedPostgres.builder().setDataDirectory(folder).setCleanDataDirectory(false)
                // The server's own shutdown sequence stops PostgreSQL last; zonky's hook would stop it too early.
                .setRegisterShutdownHook(false)
                .setConnectConfig("password", password)
                .setServerConfig("listen_addresses", "localhost");
    }

    /** Called after initdb, before PostgreSQL starts: Crucible's rules replace initdb's (already SCRAM). */
    private static void writeRules(Path folder) {
        try {
            if (!ClientAuthentication.current(folder)) {
                ClientAuthentication.write(folder);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the embedded database's pg_hba.conf", e);
        }
    }

    static String url(int port, String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    public String jdbcUrl() {
        return url(port, DATABASE);
    }

    public String user() {
        return USER;
    }

    public String password() {
        return password;
    }

    private void createDatabaseIfMissing() {
        try (Connection c = DriverManager.getConnection(url(port, "postgres"), user(), password)) {
            boolean exists = c.createStatement().executeQuery(
                    "SELECT 1 FROM pg_database WHERE datname = '" + DATABASE + "'").next();
            if (!exists) {
                c.createStatement().execute("CREATE DATABASE " + DATABASE);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot prepare database '" + DATABASE + "': " + e.getMessage(), e);
        }
    }

    /** How many times the supervised server was started again after it died; 0 for a server this process joined. */
    public long restarts() {
        return supervisor == null ? 0 : supervisor.restarts();
    }

    /** Stops the server if this process started it (the one running now, after any restarts). */
    @Override
    public void close() {
        if (supervisor != null) {
            supervisor.close();
        }
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
