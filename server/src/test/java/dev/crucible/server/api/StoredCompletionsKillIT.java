package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.ChildServer;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import dev.crucible.testsupport.concurrent.Await;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * kill -9 with stored completions: a server in its own JVM answers stored completions; the writer commits them with
 * no further request (seen from another connection), and a SIGKILL right after more answers loses only a tail of
 * the newest: what survives is the answered order without a gap, and everything committed before stays.
 */
class StoredCompletionsKillIT {

    private static List<String> rows(String db, String entity) {
        List<String> ids = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(db, "postgres", "");
                PreparedStatement select = connection.prepareStatement(
                        "SELECT id FROM stored_completions WHERE entity = ? ORDER BY seq")) {
            select.setString(1, entity);
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getString(1));
                }
            }
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
        return ids;
    }

    private static String store(Api api) {
        Api.Reply reply = api.post("/v1/chat/completions", RequestBodies.chat("Keep me", "store", true,
                "max_tokens", 1));
        assertEquals(200, reply.status(), reply.toString());
        return reply.text("id");
    }

    @Test
    void aKillLosesOnlyTheNewestTailAndNothingCommitted() throws Exception {
        ChildServer.Started child = ChildServer.startFresh("kai");
        String db = child.database();
        List<String> committed = new ArrayList<>();
        List<String> last = new ArrayList<>();
        try (child) {
            Api api = new Api(child.url(), child.key());
            for (int i = 0; i < 20; i++) {
                committed.add(store(api));
            }
            // the writer commits on its own: no request, no shutdown; polled from another connection
            Await.until(() -> rows(db, "kai"), ids -> ids.size() == committed.size(), Duration.ofSeconds(30));
            for (int i = 0; i < 10; i++) {
                last.add(store(api));
            }
            child.kill(Duration.ofSeconds(60));
        }
        try (TestServer restarted = TestServer.start(db, child.dataDir(), Map.of("crucible.runner.enabled", false))) {
            List<String> survived = rows(db, "kai");
            assertEquals(committed, survived.subList(0, committed.size()), "everything committed before the kill");
            List<String> tail = survived.subList(committed.size(), survived.size());
            assertEquals(last.subList(0, tail.size()), tail, "what survives of the last ones is a prefix: no gap");
            Api api = restarted.api(restarted.newKey("kai"));
            assertEquals(survived.size(), api.get("/v1/chat/completions?limit=100").data().size());
        }
    }
}
