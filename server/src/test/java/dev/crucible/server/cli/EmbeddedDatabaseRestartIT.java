package dev.crucible.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.TestServer;
import dev.crucible.testsupport.concurrent.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * kill -9 of the embedded PostgreSQL under a stream of writes, against {@code crucible serve} on its embedded
 * defaults: while it is down, writes are answered 503 with {@code Retry-After} in the error envelope (never 500);
 * the server starts it again on its own, says so in its log and in {@code crucible_database_restarts_total}, writes
 * succeed again within seconds, and every write acknowledged with 200 before, during or after is still there.
 */
class EmbeddedDatabaseRestartIT {

    private static final String KEY = "restart-test-key-0123456789";
    private static final String PROJECT = "default/proj";

    /** One answered write: its status, the created id (200) or Retry-After (503), and when it was answered. */
    private record Write(int status, String id, String retryAfter, String type, long answeredAtNanos) {
    }

    @Test
    void aKilledEmbeddedPostgresIsRestartedAndNoAcknowledgedWriteIsLost() throws Exception {
        Path dataDir = TestServer.newDataDir();
        ServeCommandIT.Serving serving = ServeCommandIT.start(dataDir, dataDir.resolve("serve.log"),
                Map.of("CRUCIBLE_API_KEY", KEY));
        Process server = serving.process();
        int port = serving.port();
        Path pidFile = dataDir.resolve("postgres/postmaster.pid");
        try {
            Api api = new Api("http://127.0.0.1:" + port, KEY);
            assertEquals(200, api.get("/v1/health/ready").status());

            ConcurrentLinkedQueue<Write> writes = new ConcurrentLinkedQueue<>();
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong sent = new AtomicLong();
            Thread writer = Thread.ofPlatform().name("writer").start(() -> {
                while (!stop.get()) {
                    Api.Reply reply = api.post("/feedback/create", feedback(sent.incrementAndGet()));
                    List<String> retry = reply.headers().getOrDefault("retry-after", List.of());
                    Object error = reply.status() == 200 ? null : reply.error().get("type");
                    writes.add(new Write(reply.status(), reply.status() == 200 ? reply.text("id") : null,
                            retry.isEmpty() ? null : retry.getFirst(), (String) error, System.nanoTime()));
                }
            });
            try {
                Await.until(() -> writes.size(), n -> n >= 10, Duration.ofSeconds(60));
                long pid = Long.parseLong(Files.readAllLines(pidFile).getFirst().strip());
                long killedAt = System.nanoTime();
                assertTrue(ProcessHandle.of(pid).orElseThrow().destroyForcibly(), "SIGKILL to the postmaster " + pid);

                Await.until(() -> restarts(api), n -> n >= 1.0, Duration.ofSeconds(90));
                long restartedAt = System.nanoTime();
                // Writes succeed again: the first acknowledged after the outage was seen, and after the restart.
                Await.until(() -> writes.stream().anyMatch(w -> w.status() == 200 && w.answeredAtNanos() > restartedAt),
                        b -> b, Duration.ofSeconds(60));
                // The outage shows as the first refused write; a restart quicker than the pool's wait for a connection
                // refuses none (the write waits and lands on the new server), so the restart seen stands in for it.
                long outageSeen = writes.stream().filter(w -> w.status() != 200).mapToLong(Write::answeredAtNanos).min()
                        .orElse(restartedAt);
                long backAfterMs = writes.stream().filter(w -> w.status() == 200 && w.answeredAtNanos() > outageSeen)
                        .mapToLong(w -> (w.answeredAtNanos() - killedAt) / 1_000_000).min().orElseThrow();
                System.out.println("EmbeddedDatabaseRestartIT: writes succeeded again " + backAfterMs
                        + " ms after the kill; " + writes.stream().filter(w -> w.status() == 503).count()
                        + " writes were answered 503 meanwhile, " + writes.stream().filter(w -> w.status() == 200)
                        .count() + " acknowledged in all; restart counted "
                        + (restartedAt - killedAt) / 1_000_000 + " ms after the kill");
                assertTrue(backAfterMs < 30_000, "writes succeed again within seconds, took " + backAfterMs + " ms");
            } finally {
                stop.set(true);
                writer.join(30_000);
            }

            List<Write> refused = writes.stream().filter(w -> w.status() != 200).toList();
            assertTrue(refused.stream().allMatch(w -> w.status() == 503 && w.retryAfter() != null
                    && "service_unavailable".equals(w.type())), "only 503 with Retry-After: " + refused);
            // Whether any write was refused depends on the race between the writer and the restart (one of about 25 was,
            // in most runs; none, in some); HealthIT pins the 503 for a database out of reach.
            List<String> acknowledged = writes.stream().filter(w -> w.status() == 200).map(Write::id).toList();
            for (String id : acknowledged) {
                Api.Reply found = api.post("/feedback/query", Map.of("project_id", PROJECT, "query",
                        Map.of("$expr", Map.of("$eq", List.of(Map.of("$getField", "id"), Map.of("$literal", id))))));
                assertEquals(200, found.status(), found.toString());
                assertEquals(1, ((List<?>) found.json().get("result")).size(), "acknowledged write " + id + " is kept");
            }
            assertEquals(200, api.get("/v1/health/ready").status());
            // The tests' logback configuration shows warnings only: the death, not the INFO line of the restart.
            assertTrue(read(dataDir.resolve("serve.log")).contains("The embedded PostgreSQL died; restarting it"),
                    "the restart is logged");

            server.destroy();
            assertTrue(server.waitFor(60, TimeUnit.SECONDS), "SIGTERM ended the process");
            assertFalse(Files.exists(pidFile), "the restarted PostgreSQL was stopped with the server");
        } finally {
            server.destroyForcibly();
            server.waitFor(30, TimeUnit.SECONDS);
            // A postmaster left behind by a failed run is the test's to end.
            if (Files.exists(pidFile)) {
                ProcessHandle.of(restartedPid(pidFile)).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }

    private static Map<String, Object> feedback(long n) {
        return Map.of("project_id", PROJECT, "weave_ref", "weave:///default/proj/object/answer:abc123",
                "feedback_type", "custom", "payload", Map.of("n", n));
    }

    private static double restarts(Api api) {
        Api.Bytes metrics = api.download("/metrics");
        if (metrics.status() != 200) {
            return -1;
        }
        for (String line : new String(metrics.body(), java.nio.charset.StandardCharsets.UTF_8).lines().toList()) {
            if (line.startsWith("crucible_database_restarts_total")) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return 0;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static long restartedPid(Path pidFile) {
        try {
            return Long.parseLong(Files.readAllLines(pidFile).getFirst().strip());
        } catch (Exception e) {
            return -1;
        }
    }
}
