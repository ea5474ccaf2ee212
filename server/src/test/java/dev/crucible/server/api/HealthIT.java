package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.TestServer;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The system check reports each part and answers 503 when one fails. */
class HealthIT {

    @SuppressWarnings("unchecked")
    @Test
    void systemCheckAnswers503WhenTheDatabaseIsUnreachable() throws Exception {
        EmbeddedPostgres own = EmbeddedPostgres.builder().start();
        String url = "jdbc:postgresql://127.0.0.1:" + own.getPort() + "/postgres";
        try (TestServer server = TestServer.start(url, TestServer.newDataDir(), Map.of())) {
            Api anonymous = server.api(null);
            Api keyed = server.api(server.newKey("kim"));
            Api.Reply before = anonymous.get("/v1/system-check");
            Map<String, Object> database = (Map<String, Object>) before.json().get("database");
            assertEquals(true, database.get("success"), before.toString());
            for (String check : new String[] {"api", "database", "cpu_queue", "gpu_queue", "engines"}) {
                Map<String, Object> c = (Map<String, Object>) before.json().get(check);
                assertTrue(c.containsKey("success") && c.containsKey("duration_ms") && c.containsKey("error"), check);
            }

            own.close();
            Api.Reply after = anonymous.get("/v1/system-check");
            assertEquals(503, after.status());
            Map<String, Object> down = (Map<String, Object>) after.json().get("database");
            assertEquals(false, down.get("success"));
            assertTrue(((String) down.get("error")).contains("unreachable"), down.toString());
            assertEquals(200, anonymous.get("/v1/health").status(), "health only says the process serves");

            Api.Reply broken = keyed.get("/v1/models");
            assertTrue(broken.status() >= 500, broken.toString());
            Map<String, Object> error = broken.error();
            assertEquals(broken.status(), ((Number) error.get("code")).intValue());
            String text = broken.json().toString();
            assertTrue(!text.contains("Exception") && !text.contains("at dev.") && !text.contains("jdbc"),
                    "a 5xx body carries no internals: " + text);
        }
    }

    @SuppressWarnings("unchecked")
    @Test
    void systemCheckIsHealthyWithTheInstalledInferenceEngine() {
        try (TestServer server = TestServer.start(Map.of())) {
            Api.Reply reply = server.api(null).get("/v1/system-check");
            assertEquals(200, reply.status(), reply.toString());
            for (String check : new String[] {"api", "database", "cpu_queue", "gpu_queue", "engines"}) {
                Map<String, Object> c = (Map<String, Object>) reply.json().get(check);
                assertEquals(true, c.get("success"), check + ": " + c);
            }
        }
    }
}
