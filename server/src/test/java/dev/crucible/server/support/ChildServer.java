package dev.crucible.server.support;

import java.nio.file.Path;
import java.util.Map;

/**
 * Entry point of a server in a separate JVM, so that a test can kill it with SIGKILL mid-job: runs jobs with
 * the blocking test trainer and prints {@code READY <url> <key>} once it serves.
 */
public final class ChildServer {

    private ChildServer() {
    }

    public static void main(String[] args) throws InterruptedException {
        TestServer server = TestServer.start(args[0], Path.of(args[1]), Map.of("test.trainer", "blocking"));
        String key = server.newKey(args[2]);
        System.out.println("READY " + server.url() + " " + key);
        System.out.flush();
        Thread.currentThread().join();
    }
}
