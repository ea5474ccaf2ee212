package dev.crucible.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.application.job.JobRunner;
import dev.crucible.server.database.EmbeddedDatabase;
import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import dev.crucible.testsupport.concurrent.Await;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * SIGTERM to {@code crucible serve} as a process (embedded PostgreSQL, a training job running, a request half
 * received): new connections are refused at once, the request in flight is answered 200 and its write is kept, the
 * running job goes back to the queue with its {@code training_requeued} event, and PostgreSQL stops last.
 */
class GracefulStopIT {

    private static final String KEY = "graceful-stop-key-0123456789";

    @Test
    void sigtermLetsTheRequestInFlightFinishAndHandsTheRunningJobBackToTheQueue() throws Exception {
        Path dataDir = TestServer.newDataDir();
        // The test's blocking trainer: a job trains until it is told to stop.
        ServeCommandIT.Serving serving = ServeCommandIT.start(dataDir, dataDir.resolve("serve.log"),
                Map.of("CRUCIBLE_API_KEY", KEY), "-Dtest.trainer=blocking");
        Process server = serving.process();
        int port = serving.port();
        try {
            Api api = new Api("http://127.0.0.1:" + port, KEY);
            Api.Reply created = api.post("/v1/preview/models", model("trained"));
            assertEquals(200, created.status(), created.toString());
            Api.Reply started = api.post("/v1/preview/training-jobs", RequestBodies.rlJob(created.text("id")));
            assertEquals(200, started.status(), started.toString());
            String job = started.text("id");
            Await.until(() -> api.get("/v1/preview/training-jobs/" + job).text("status"), "RUNNING"::equals,
                    Duration.ofSeconds(30));

            byte[] body = ("{\"project\":\"p\",\"name\":\"in-flight\",\"base_model\":\"crucible-tiny\"}")
                    .getBytes(StandardCharsets.UTF_8);
            try (Socket slow = new Socket()) {
                slow.connect(new InetSocketAddress("127.0.0.1", port), 5000);
                slow.setSoTimeout(60_000);
                OutputStream out = slow.getOutputStream();
                out.write(("POST /v1/preview/models HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + KEY
                        + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                out.write(body, 0, 10);
                out.flush();
                Thread.sleep(500);

                server.destroy(); // SIGTERM
                assertTrue(Await.until(() -> !connects(port), b -> b, Duration.ofSeconds(20)),
                        "new connections are refused once stopping");
                assertTrue(server.isAlive(), "the process waits for the request in flight");

                out.write(body, 10, body.length - 10);
                out.flush();
                String status = new BufferedReader(new InputStreamReader(slow.getInputStream(), StandardCharsets.US_ASCII))
                        .readLine();
                assertEquals("HTTP/1.1 200 OK", status, "the request in flight was answered");
            }
            assertTrue(server.waitFor(60, TimeUnit.SECONDS), "the process ended; log in " + dataDir);
            assertEquals(143, server.exitValue());
            assertFalse(Files.exists(dataDir.resolve("postgres/postmaster.pid")), "PostgreSQL was stopped too");

            try (EmbeddedDatabase db = EmbeddedDatabase.open(dataDir);
                    TestServer after = TestServer.start(db.jdbcUrl(), dataDir, Map.of(
                            "datasources.default.password", db.password(), "crucible.runner.enabled", false))) {
                Api again = after.api(KEY);
                Map<String, Object> ended = again.get("/v1/preview/training-jobs/" + job).json();
                assertEquals("QUEUED", ended.get("status"), ended.toString());
                List<Map<String, Object>> events = again.get("/v1/preview/training-jobs/" + job + "/events").data();
                assertEquals(List.of("training_started", "training_requeued"), events.stream().map(e -> e.get("type"))
                        .toList());
                assertEquals(Map.of("reason", JobRunner.REQUEUED), events.get(1).get("data"));
                try (var c = java.sql.DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
                        var rs = c.createStatement().executeQuery("SELECT count(*) FROM models WHERE name = 'in-flight'")) {
                    rs.next();
                    assertEquals(1, rs.getInt(1), "the write of the request in flight was kept");
                }
            }
        } finally {
            server.destroyForcibly();
        }
    }

    private static Map<String, Object> model(String name) {
        Map<String, Object> body = new java.util.HashMap<>(RequestBodies.createModel("p", name));
        body.put("base_model", "crucible-tiny");
        return body;
    }

    private static boolean connects(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
