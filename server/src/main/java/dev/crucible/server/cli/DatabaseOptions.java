package dev.crucible.server.cli;

import dev.crucible.server.database.Durability;
import dev.crucible.server.database.EmbeddedDatabase;
import dev.crucible.server.database.PrivateFiles;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Option;

/** Where data lives: the data directory, and PostgreSQL (embedded in the data directory unless a URL is given). */
final class DatabaseOptions {

    @Option(names = "--data-dir", defaultValue = "${env:CRUCIBLE_DATA_DIR:-data}",
            description = "Data directory: adapters, datasets, embedded database (env CRUCIBLE_DATA_DIR; default ./data).")
    Path dataDir;

    @Option(names = "--database-url", defaultValue = "${env:CRUCIBLE_DATABASE_URL}",
            description = "JDBC URL of a PostgreSQL database (env CRUCIBLE_DATABASE_URL); "
                    + "without it an embedded PostgreSQL runs in the data directory.")
    String databaseUrl;

    @Option(names = "--database-user", defaultValue = "${env:CRUCIBLE_DATABASE_USER:-postgres}",
            description = "Database user (env CRUCIBLE_DATABASE_USER; default postgres).")
    String databaseUser;

    @Option(names = "--database-password", defaultValue = "${env:CRUCIBLE_DATABASE_PASSWORD}",
            description = "Database password (env CRUCIBLE_DATABASE_PASSWORD).")
    String databasePassword;

    @Option(names = "--unsafe-fast-database", defaultValue = "${env:CRUCIBLE_UNSAFE_FAST_DATABASE:-false}",
            description = "UNSAFE: run the embedded PostgreSQL without fsync and synchronous commits (env "
                    + "CRUCIBLE_UNSAFE_FAST_DATABASE). Faster, but answered writes are lost on kill -9 or a crash; "
                    + "for throwaway data only.")
    boolean unsafeFastDatabase;

    /**
     * Makes the data directory private (0700: it holds every tenant's files and adapters), then starts the
     * embedded database when no URL was given; null otherwise.
     */
    EmbeddedDatabase openEmbeddedIfNeeded() {
        PrivateFiles.directory(dataDir.toAbsolutePath().normalize());
        return databaseUrl == null || databaseUrl.isBlank()
                ? EmbeddedDatabase.open(dataDir, unsafeFastDatabase ? Durability.UNSAFE_FAST : Durability.DURABLE) : null;
    }

    /** The Micronaut properties that point the application at the database and data directory. */
    Map<String, Object> properties(EmbeddedDatabase embedded) {
        return Map.of(
                "crucible.data-dir", dataDir.toAbsolutePath().normalize().toString(),
                "datasources.default.url", embedded != null ? embedded.jdbcUrl() : databaseUrl,
                "datasources.default.username", embedded != null ? embedded.user() : databaseUser,
                "datasources.default.password", embedded != null ? embedded.password()
                        : databasePassword == null ? "" : databasePassword);
    }
}
