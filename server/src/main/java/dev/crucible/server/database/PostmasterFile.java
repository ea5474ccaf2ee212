package dev.crucible.server.database;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What a PostgreSQL data directory's {@code postmaster.pid} says: the postmaster's pid (line 1), its port (line 4), the
 * directory of its Unix socket (line 5, empty for none) and the id of its System V shared memory segment (the second
 * number of line 7), which every process of that server keeps attached until it exits.
 */
record PostmasterFile(long pid, int port, String socketDirectory, OptionalInt sharedMemoryId) {

    static final String NAME = "postmaster.pid";

    /** The file in {@code folder}, or empty when there is none or it is incomplete (PostgreSQL is still writing it). */
    static Optional<PostmasterFile> read(Path folder) {
        try {
            return parse(Files.readAllLines(folder.resolve(NAME)));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The lock file of the server's Unix socket, which names its pid too; empty when it listens on no socket. */
    Optional<Path> socketLock() {
        return socketDirectory.isEmpty() ? Optional.empty()
                : Optional.of(Path.of(socketDirectory, ".s.PGSQL." + port + ".lock"));
    }

    static Optional<PostmasterFile> parse(List<String> lines) {
        try {
            if (lines.size() < 4) {
                return Optional.empty();
            }
            long pid = Long.parseLong(lines.get(0).strip());
            int port = Integer.parseInt(lines.get(3).strip());
            String socketDirectory = lines.size() > 4 ? lines.get(4).strip() : "";
            OptionalInt shmId = OptionalInt.empty();
            if (lines.size() > 6) {
                String[] ids = lines.get(6).strip().split("\\s+");
                if (ids.length == 2) {
                    shmId = OptionalInt.of(Integer.parseInt(ids[1]));
                }
            }
            return Optional.of(new PostmasterFile(pid, port, socketDirectory, shmId));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
