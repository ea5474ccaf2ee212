package dev.crucible.server.database;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What Linux's {@code /proc} says about a process that is not this JVM's child, and about System V shared memory.
 * A killed process whose parent has not reaped it yet is a zombie: {@link ProcessHandle} still calls it alive, and
 * PostgreSQL's own check ({@code kill(pid, 0)}) takes it for a running server.
 */
final class Processes {

    private static final Path PROC = Path.of("/proc");

    private Processes() {
    }

    enum State { RUNNING, ZOMBIE, GONE }

    static State state(long pid) {
        return state(PROC, pid);
    }

    static State state(Path proc, long pid) {
        Path stat = proc.resolve(Long.toString(pid)).resolve("stat");
        if (!Files.isDirectory(proc)) {
            // Not Linux: the JDK's view, zombies included.
            return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) ? State.RUNNING : State.GONE;
        }
        try {
            String line = Files.readString(stat);
            // "pid (comm) S ...": the command may hold spaces and parentheses, the state follows the last ')'.
            char s = line.charAt(line.lastIndexOf(')') + 2);
            return s == 'Z' || s == 'X' ? State.ZOMBIE : State.RUNNING;
        } catch (IOException | RuntimeException e) {
            return State.GONE;
        }
    }

    /**
     * Whether processes are still attached to the System V shared memory segment {@code id}: PostgreSQL refuses to
     * start while any process of the server that died is still running ("pre-existing shared memory block is still
     * in use"). False when the segment is gone; true when it cannot be told.
     */
    static boolean sharedMemoryAttached(int id) {
        return sharedMemoryAttached(PROC.resolve("sysvipc").resolve("shm"), id);
    }

    static boolean sharedMemoryAttached(Path table, int id) {
        try {
            List<String> lines = Files.readAllLines(table);
            if (lines.isEmpty()) {
                return true;
            }
            List<String> header = List.of(lines.getFirst().strip().split("\\s+"));
            int shmid = header.indexOf("shmid");
            int nattch = header.indexOf("nattch");
            if (shmid < 0 || nattch < 0) {
                return true;
            }
            for (String line : lines.subList(1, lines.size())) {
                String[] cells = line.strip().split("\\s+");
                if (cells.length > Math.max(shmid, nattch) && cells[shmid].equals(Integer.toString(id))) {
                    return Long.parseLong(cells[nattch]) > 0;
                }
            }
            return false;
        } catch (IOException | RuntimeException e) {
            return true;
        }
    }
}
