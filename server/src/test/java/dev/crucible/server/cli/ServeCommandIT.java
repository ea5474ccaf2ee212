package dev.crucible.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.Crucible;
import dev.crucible.server.support.TestServer;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code crucible serve} as a process, the way an operator runs it: on its embedded defaults it starts and serves,
 * and SIGTERM (what {@code docker stop} and systemd send) ends it, embedded database included, well before anyone
 * would resort to SIGKILL.
 */
class ServeCommandIT {

    @Test
    void sigtermStopsTheServerAndItsEmbeddedDatabase() throws Exception {
        Path dataDir = TestServer.newDataDir();
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        String java = ProcessHandle.current().info().command().orElse("java");
        Process server = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), Crucible.class.getName(), "serve", "--port",
                Integer.toString(port), "--data-dir", dataDir.toString())
                .redirectErrorStream(true).redirectOutput(dataDir.resolve("serve.log").toFile()).start();
        try {
            assertTrue(healthy(port, Duration.ofSeconds(120)), "the server came up; log in " + dataDir);
            Path postmaster = dataDir.resolve("postgres").resolve("postmaster.pid");
            assertTrue(Files.exists(postmaster), "the embedded database runs in the data directory");

            server.destroy();
            assertTrue(server.waitFor(45, TimeUnit.SECONDS), "SIGTERM ended the process");
            assertEquals(143, server.exitValue(), "ended by the signal, after the shutdown hooks ran");
            assertFalse(Files.exists(postmaster), "the embedded database was stopped too");
        } finally {
            server.destroyForcibly();
        }
    }

    private static boolean healthy(int port, Duration limit) throws InterruptedException {
        HttpClient client = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<String> reply = client.send(HttpRequest.newBuilder(
                        URI.create("http://localhost:" + port + "/v1/health")).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (reply.statusCode() == 200) {
                    return true;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        return false;
    }
}
