package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.TestServer;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The system check reports each part and answers 503 when one fails; with the database out of reach, routes that need
 * it answer 503 with Retry-After (never 500), the readiness route says not ready, and both recover by themselves when
 * the database returns.
 */
class HealthIT {

    @SuppressWarnings("unchecked")
    @Test
    void anUnreachableDatabaseIsA503WithRetryAfterAndNotReadyUntilItReturns() throws Exception {
        Path pgData = Files.createTempDirectory("crucible-external-pg-");
        EmbeddedPostgres own = external(pgData, 0);
        int pgPort = own.getPort();
        String url = "jdbc:postgresql://127.0.0.1:" + pgPort + "/postgres";
        try (TestServer server = TestServer.start(url, TestServer.newDataDir(), Map.of())) {
            Api anonymous = server.api(null);
            Api keyed = server.api(server.newKey("kim"));
            Api.Reply before = anonymous.get("/v1/system-check");
            Map<String, Object> database = (Map<String, Object>) before.json().get("database");
            assertEquals(true, database.get("success"), before.toString());
            for (String check : new String[] {"api", "database", "storage", "cpu_queue", "gpu_queue", "engines"}) {
                Map<String, Object> c = (Map<String, Object>) before.json().get(check);
                assertTrue(c.containsKey("success") && c.containsKey("duration_ms") && c.containsKey("error"), check);
            }
            assertEquals(200, anonymous.get("/v1/health/ready").status());

            own.close();
            Api.Reply after = anonymous.get("/v1/system-check");
            assertEquals(503, after.status());
            Map<String, Object> down = (Map<String, Object>) after.json().get("database");
            assertEquals(false, down.get("success"));
            assertTrue(((String) down.get("error")).contains("unreachable"), down.toString());
            assertEquals(200, anonymous.get("/v1/health").status(), "health only says the process serves");
            Api.Reply notReady = anonymous.get("/v1/health/ready");
            assertEquals(503, notReady.status(), notReady.toString());
            assertTrue(notReady.headers().containsKey("retry-after"), notReady.toString());
            assertEquals(false, ((Map<String, Object>) notReady.json().get("database")).get("success"));

            long start = System.nanoTime();
            Api.Reply broken = keyed.get("/v1/models");
            long tookMs = (System.nanoTime() - start) / 1_000_000;
            assertEquals(503, broken.status(), broken.toString());
            assertTrue(Long.parseLong(broken.headers().get("retry-after").getFirst()) >= 1, broken.toString());
            Map<String, Object> error = broken.error();
            assertEquals(503, ((Number) error.get("code")).intValue());
            assertEquals("service_unavailable", error.get("type"));
            assertTrue(((String) error.get("message")).contains("database is unavailable"), error.toString());
            assertTrue(tookMs < 15_000, "answered within the pool's connection timeout, not after 30 s: " + tookMs + " ms");
            String text = broken.json().toString();
            assertTrue(!text.contains("Exception") && !text.contains("at dev.") && !text.contains("jdbc"),
                    "a 5xx body carries no internals: " + text);
            Api.Reply write = keyed.post("/v1/preview/models",
                    dev.crucible.server.support.RequestBodies.createModel("p", "m"));
            assertEquals(503, write.status(), write.toString());

            own = external(pgData, pgPort);
            Api.Reply recovered = dev.crucible.testsupport.concurrent.Await.until(() -> keyed.get("/v1/models"),
                    r -> r.status() == 200, java.time.Duration.ofSeconds(30));
            assertEquals(200, recovered.status(), "the pool recovers by itself once the database is back");
            assertEquals(200, anonymous.get("/v1/health/ready").status());
        } finally {
            own.close();
        }
    }

    /** A PostgreSQL of its own on {@code data} (kept across restarts), on {@code port} (0: any free port). */
    private static EmbeddedPostgres external(Path data, int port) throws java.io.IOException {
        EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder().setDataDirectory(data).setCleanDataDirectory(false);
        return (port == 0 ? builder : builder.setPort(port)).start();
    }

    @SuppressWarnings("unchecked")
    @Test
    void systemCheckIsHealthyWithTheInstalledInferenceEngine() {
        try (TestServer server = TestServer.start(Map.of())) {
            Api.Reply reply = server.api(null).get("/v1/system-check");
            assertEquals(200, reply.status(), reply.toString());
            for (String check : new String[] {"api", "database", "storage", "cpu_queue", "gpu_queue", "engines"}) {
                Map<String, Object> c = (Map<String, Object>) reply.json().get(check);
                assertEquals(true, c.get("success"), check + ": " + c);
            }
        }
    }
}
