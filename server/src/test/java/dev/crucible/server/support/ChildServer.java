package dev.crucible.server.support;

import dev.crucible.testsupport.database.TestDatabase;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Entry point of a server in a separate JVM, so that a test can kill it with SIGKILL mid-job: runs jobs with
 * the blocking test trainer and prints {@code READY <url> <key>} once it serves.
 */
public final class ChildServer {

    private ChildServer() {
    }

    /**
     * A child server's process, its base URL and the key it issued, once it serves, with the database and data
     * directory a server restarted after it takes over. Closing it kills the process, if it still runs.
     */
    public record Started(Process process, String url, String key, String database, Path dataDir)
            implements AutoCloseable {

        /** Kills the server with SIGKILL, as a crash would, and waits until it has ended. */
        public void kill(Duration within) throws InterruptedException {
            process.destroyForcibly();
            if (!process.waitFor(within.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("the child server still runs " + within + " after SIGKILL");
            }
        }

        @Override
        public void close() {
            process.destroyForcibly();
        }
    }

    /** {@link #start} on a fresh database and data directory of its own. */
    public static Started startFresh(String entity) throws IOException {
        return start(TestDatabase.freshDatabase(), TestServer.newDataDir(), entity);
    }

    /**
     * Starts a child server on {@code database} and {@code dataDir} with a key for {@code entity}, and waits until it
     * serves. The caller ends the process (SIGKILL is the point).
     *
     * @throws AssertionError when the process ends before it says it serves
     */
    public static Started start(String database, Path dataDir, String entity) throws IOException {
        List<String> command = ChildJvm.command(ChildJvm.SERVER, ChildJvm.QUICK_START);
        command.addAll(List.of(ChildServer.class.getName(), database, dataDir.toString(), entity));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        String line;
        do {
            line = out.readLine();
        } while (line != null && !line.startsWith("READY "));
        if (line == null) {
            child.destroyForcibly();
            throw new AssertionError("the child server ended before it served");
        }
        String[] ready = line.split(" ");
        return new Started(child, ready[1], ready[2], database, dataDir);
    }

    public static void main(String[] args) throws InterruptedException {
        TestServer server = TestServer.start(args[0], Path.of(args[1]), Map.of("test.trainer", "blocking"));
        String key = server.newKey(args[2]);
        System.out.println("READY " + server.url() + " " + key);
        System.out.flush();
        Thread.currentThread().join();
    }
}
