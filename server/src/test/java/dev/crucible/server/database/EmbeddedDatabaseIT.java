package dev.crucible.server.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded PostgreSQL lets in only who knows the password kept (0600) in the private (0700) data directory:
 * on a fresh data directory, after a restart, when joining a running one, and after upgrading a data directory
 * made by an earlier Crucible, whose superuser had no password and whose rules trusted every local client.
 */
class EmbeddedDatabaseIT {

    @TempDir
    Path parent;

    @Test
    void aFreshDataDirectoryRefusesLoginsWithoutThePassword() throws Exception {
        Path dataDir = parent.resolve("data");
        try (EmbeddedDatabase db = EmbeddedDatabase.open(dataDir)) {
            assertRefused(db.jdbcUrl(), "");
            assertRefused(db.jdbcUrl(), "wrong");
            assertRefused(db.jdbcUrl().replace("/crucible", "/postgres"), "");
            assertEquals(1, count(db.jdbcUrl(), db.password(), "SELECT 1"), "the password lets the server in");
            assertEquals(db.password(), Files.readString(dataDir.resolve(EmbeddedDatabase.PASSWORD_FILE)).strip());
            assertTrue(db.password().length() >= 40, "a long random password");
            assertEquals("rwx------", mode(dataDir), "the data directory is private");
            assertEquals("rw-------", mode(dataDir.resolve(EmbeddedDatabase.PASSWORD_FILE)));
            assertEquals("rwx------", mode(dataDir.resolve("postgres")));
            assertEquals(ClientAuthentication.HBA, Files.readString(dataDir.resolve("postgres/pg_hba.conf")));
            assertEquals("SCRAM-SHA-256", text(db, "SELECT left(rolpassword, 13) FROM pg_authid WHERE rolname = 'postgres'"));
        }
    }

    @Test
    void itRunsWithPostgresDurableDefaultsUnlessTheUnsafeModeIsNamed() throws Exception {
        try (EmbeddedDatabase db = EmbeddedDatabase.open(parent.resolve("durable"))) {
            for (String setting : new String[] {"fsync", "synchronous_commit", "full_page_writes"}) {
                assertEquals("on", text(db, "SHOW " + setting), setting + " (zonky's own default is off)");
            }
        }
        try (EmbeddedDatabase db = EmbeddedDatabase.open(parent.resolve("unsafe"), Durability.UNSAFE_FAST)) {
            assertEquals("off", text(db, "SHOW fsync"));
            assertEquals("off", text(db, "SHOW synchronous_commit"));
        }
    }

    @Test
    void aRestartReusesThePasswordAndAJoiningProcessUsesItToo() throws Exception {
        Path dataDir = parent.resolve("data");
        String first;
        try (EmbeddedDatabase db = EmbeddedDatabase.open(dataDir)) {
            first = db.password();
            try (EmbeddedDatabase joined = EmbeddedDatabase.open(dataDir)) {
                assertEquals(first, joined.password());
                assertEquals(db.jdbcUrl(), joined.jdbcUrl(), "the running server is joined, not a second one started");
            }
            assertEquals(1, count(db.jdbcUrl(), first, "SELECT 1"), "closing the joined handle left the server running");
        }
        try (EmbeddedDatabase again = EmbeddedDatabase.open(dataDir)) {
            assertEquals(first, again.password());
            assertEquals(1, count(again.jdbcUrl(), first, "SELECT 1"));
            assertRefused(again.jdbcUrl(), "");
        }
    }

    @Test
    void aDataDirectoryOfAnEarlierVersionIsUpgradedWithItsDataKept() throws Exception {
        Path dataDir = parent.resolve("old");
        Files.createDirectories(dataDir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        Path folder = dataDir.resolve("postgres");
        // What earlier versions did: zonky's defaults, "trust" for every local client, no password anywhere.
        try (EmbeddedPostgres old = EmbeddedPostgres.builder().setDataDirectory(folder).setCleanDataDirectory(false).start();
                Connection c = DriverManager.getConnection(EmbeddedDatabase.url(old.getPort(), "postgres"), "postgres", "")) {
            c.createStatement().execute("CREATE DATABASE crucible");
            try (Connection crucible = DriverManager.getConnection(EmbeddedDatabase.url(old.getPort(), "crucible"), "postgres", "")) {
                crucible.createStatement().execute("CREATE TABLE kept (v int); INSERT INTO kept VALUES (7)");
            }
        }
        assertTrue(Files.readString(folder.resolve("pg_hba.conf")).contains("trust"), "the old rules trusted everyone");

        try (EmbeddedDatabase db = EmbeddedDatabase.open(dataDir)) {
            assertRefused(db.jdbcUrl(), "");
            assertEquals(7, count(db.jdbcUrl(), db.password(), "SELECT v FROM kept"), "the data survived the upgrade");
            assertEquals("rwx------", mode(dataDir));
            assertEquals("rw-------", mode(dataDir.resolve(EmbeddedDatabase.PASSWORD_FILE)));
            assertEquals(ClientAuthentication.HBA, Files.readString(folder.resolve("pg_hba.conf")));
        }
        try (EmbeddedDatabase again = EmbeddedDatabase.open(dataDir)) {
            assertEquals(7, count(again.jdbcUrl(), again.password(), "SELECT v FROM kept"), "the upgraded directory restarts");
        }
    }

    private static void assertRefused(String url, String password) {
        SQLException e = assertThrows(SQLException.class, () -> DriverManager.getConnection(url, "postgres", password).close());
        assertTrue(e.getSQLState().startsWith("28") || e.getMessage().contains("password"), e.getSQLState() + " " + e.getMessage());
    }

    private static int count(String url, String password, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "postgres", password);
                ResultSet rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static String text(EmbeddedDatabase db, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
                ResultSet rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static String mode(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }
}
