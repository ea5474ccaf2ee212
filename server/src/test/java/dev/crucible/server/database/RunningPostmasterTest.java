package dev.crucible.server.database;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Joining an embedded PostgreSQL that a running server started: read from its postmaster.pid. */
class RunningPostmasterTest {

    @TempDir
    Path folder;

    @Test
    void aLivePostmasterGivesItsPort() throws IOException {
        Files.writeString(folder.resolve("postmaster.pid"), ProcessHandle.current().pid() + "\n" + folder + "\n1700000000\n54321\n");
        assertEquals(Optional.of(54321), EmbeddedDatabase.RunningPostmaster.port(folder));
    }

    @Test
    void aDeadPostmasterIsIgnored() throws IOException {
        Files.writeString(folder.resolve("postmaster.pid"), "999999999\n" + folder + "\n1700000000\n54321\n");
        assertEquals(Optional.empty(), EmbeddedDatabase.RunningPostmaster.port(folder));
    }

    @Test
    void aMissingOrGarbledPidFileIsIgnored() throws IOException {
        assertEquals(Optional.empty(), EmbeddedDatabase.RunningPostmaster.port(folder));
        Files.writeString(folder.resolve("postmaster.pid"), "not a pid\n");
        assertEquals(Optional.empty(), EmbeddedDatabase.RunningPostmaster.port(folder));
    }
}
