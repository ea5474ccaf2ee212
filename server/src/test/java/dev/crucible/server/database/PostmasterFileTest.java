package dev.crucible.server.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PostmasterFileTest {

    @Test
    void readsPidPortAndSharedMemoryId() {
        List<String> lines = List.of("15402", "/data/postgres", "1795759977", "54999", "/tmp", "localhost",
                "  2180266        43", "ready   ");
        PostmasterFile file = PostmasterFile.parse(lines).orElseThrow();
        assertEquals(new PostmasterFile(15402, 54999, "/tmp", OptionalInt.of(43)), file);
        assertEquals(Optional.of(Path.of("/tmp/.s.PGSQL.54999.lock")), file.socketLock());
    }

    @Test
    void anIncompleteFileIsNone() {
        assertEquals(Optional.empty(), PostmasterFile.parse(List.of("15402", "/data/postgres")));
        assertEquals(Optional.empty(), PostmasterFile.parse(List.of("x", "/d", "1", "5432")));
        PostmasterFile bare = PostmasterFile.parse(List.of("7", "/d", "1", "5432")).orElseThrow();
        assertEquals(new PostmasterFile(7, 5432, "", OptionalInt.empty()), bare);
        assertEquals(Optional.empty(), bare.socketLock());
    }

    @Test
    void aMissingFileIsNone(@TempDir Path dir) {
        assertEquals(Optional.empty(), PostmasterFile.read(dir));
    }

    @Test
    void tellsRunningZombieAndGoneProcessesApart(@TempDir Path proc) throws IOException {
        Files.createDirectories(proc.resolve("10"));
        Files.writeString(proc.resolve("10/stat"), "10 (postgres: a (b) c) S 1 10 10 0 -1");
        Files.createDirectories(proc.resolve("11"));
        Files.writeString(proc.resolve("11/stat"), "11 (postgres) Z 1 11 11 0 -1");
        assertEquals(Processes.State.RUNNING, Processes.state(proc, 10));
        assertEquals(Processes.State.ZOMBIE, Processes.state(proc, 11));
        assertEquals(Processes.State.GONE, Processes.state(proc, 12));
        assertEquals(Processes.State.RUNNING, Processes.state(ProcessHandle.current().pid()));
    }

    @Test
    void readsWhetherASharedMemorySegmentIsStillAttached(@TempDir Path dir) throws IOException {
        Path table = dir.resolve("shm");
        Files.writeString(table, """
                       key      shmid perms                  size  cpid  lpid nattch   uid   gid
                   2146929          4   600                    56  7473  7473     17     0     0
                   2180266         43   600                    56  15402 15402     0     0     0
                """);
        assertTrue(Processes.sharedMemoryAttached(table, 4));
        assertFalse(Processes.sharedMemoryAttached(table, 43));
        assertFalse(Processes.sharedMemoryAttached(table, 99), "a removed segment holds nobody");
        assertTrue(Processes.sharedMemoryAttached(dir.resolve("missing"), 43), "unknown: assume attached");
    }
}
