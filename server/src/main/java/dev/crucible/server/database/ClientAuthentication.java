package dev.crucible.server.database;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.postgresql.PGConnection;

/**
 * Who may log in to the embedded PostgreSQL: only a client that gives the superuser's password, checked with
 * SCRAM-SHA-256, over loopback or the local socket. Crucible owns the database's {@code pg_hba.conf}.
 */
final class ClientAuthentication {

    static final String HBA = """
            # Written by Crucible: every login needs the password kept in the data directory (SCRAM-SHA-256).
            # TYPE  DATABASE  USER  ADDRESS        METHOD
            local   all       all                  scram-sha-256
            host    all       all   127.0.0.1/32   scram-sha-256
            host    all       all   ::1/128        scram-sha-256
            """;

    private ClientAuthentication() {
    }

    /** Whether {@code folder}'s {@code pg_hba.conf} is Crucible's own; a data directory from before has "trust". */
    static boolean current(Path folder) {
        try {
            return Files.readString(folder.resolve("pg_hba.conf"), StandardCharsets.UTF_8).equals(HBA);
        } catch (IOException e) {
            return false;
        }
    }

    /** Writes Crucible's {@code pg_hba.conf} into {@code folder}; it takes effect when PostgreSQL (re)starts. */
    static void write(Path folder) throws IOException {
        PrivateFiles.write(folder.resolve("pg_hba.conf"), HBA);
    }

    /**
     * Gives the superuser {@code password} over a connection that the old "trust" rules let in. The password
     * travels as a SCRAM verifier computed here, so it never appears in PostgreSQL's logs.
     */
    static void setPassword(int port, String user, String password) throws SQLException {
        try (Connection c = DriverManager.getConnection(EmbeddedDatabase.url(port, "postgres"), user, password)) {
            c.unwrap(PGConnection.class).alterUserPassword(user, password.toCharArray(), "scram-sha-256");
        }
    }
}
