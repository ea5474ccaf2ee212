package dev.crucible.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.support.TestServer;
import dev.crucible.testsupport.database.TestDatabase;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code crucible keys create} prints a working key once and stores only its hash. */
class KeysCommandIT {

    @Test
    void createdKeyAuthenticatesAndOnlyItsHashIsStored() throws Exception {
        String db = TestDatabase.freshDatabase();
        Path dataDir = TestServer.newDataDir();
        StringWriter out = new StringWriter();
        int code = new CommandLine(new CrucibleCommand()).setOut(new PrintWriter(out)).execute("keys", "create",
                "--entity", "frank", "--database-url", db, "--data-dir", dataDir.toString());
        assertEquals(0, code);
        String key = out.toString().strip();
        assertTrue(key.startsWith("crk_") && key.length() > 40, key);

        try (var c = DriverManager.getConnection(db, "postgres", "");
                ResultSet rs = c.createStatement().executeQuery("SELECT entity, key_hash FROM api_keys")) {
            assertTrue(rs.next());
            assertEquals("frank", rs.getString(1));
            assertNotEquals(key, rs.getString(2));
            assertEquals(64, rs.getString(2).length());
        }
        try (TestServer server = TestServer.start(db, dataDir, Map.of())) {
            assertEquals(200, server.api(key).get("/v1/models").status());
        }
    }

    @Test
    void anInvalidEntityIsRefused() {
        StringWriter err = new StringWriter();
        int code = new CommandLine(new CrucibleCommand()).setErr(new PrintWriter(err)).execute("keys", "create",
                "--entity", "a/b", "--database-url", TestDatabase.freshDatabase());
        assertNotEquals(0, code);
        assertTrue(err.toString().contains("entity"), err.toString());
    }
}
