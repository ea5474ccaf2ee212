package dev.crucible.server.tinker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.ChildServer;
import dev.crucible.server.support.TestServer;
import dev.crucible.testsupport.database.TestDatabase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * kill -9 with futures in flight: a server in its own JVM accepts a queue of forward_backward operations and is killed
 * with SIGKILL; after a restart on the same database every accepted request id answers either its result or, once the
 * killed process's heartbeat is stale, a failure of category {@code server}: none is lost, none stays pending.
 */
class TinkerKillIT {

    @Test
    void everyAcceptedOperationIsAnsweredAfterAKill() throws Exception {
        String db = TestDatabase.freshDatabase();
        Path dataDir = TestServer.newDataDir();
        ChildServer.Started started = ChildServer.start(db, dataDir, "kim");
        Process child = started.process();
        List<String> accepted = new ArrayList<>();
        String key = started.key();
        try {
            TinkerClient tinker = new TinkerClient(new Api(started.url(), null).withHeader("X-API-Key", "tml-" + key));
            String model = tinker.createModel(TestServer.BASE_MODEL, 4);
            int[] tokens = new int[96];
            for (int i = 0; i < tokens.length; i++) {
                tokens[i] = 10 + i % 50;
            }
            List<Map<String, Object>> batch = List.of(TinkerClient.teaching(tokens), TinkerClient.teaching(tokens),
                    TinkerClient.teaching(tokens), TinkerClient.teaching(tokens));
            for (int seq = 1; seq <= 24; seq++) {
                accepted.add(tinker.submit("forward_backward", TinkerClient.forwardBackward(model, seq,
                        "cross_entropy", batch)));
                if (seq == 1) {
                    tinker.await(accepted.getFirst()); // one finished before the kill, the rest queued or running
                }
            }
            child.destroyForcibly();
            assertTrue(child.waitFor(60, TimeUnit.SECONDS));
        } finally {
            child.destroyForcibly();
        }
        try (TestServer restarted = TestServer.start(db, dataDir, Map.of("crucible.primitives.long-poll", "1s"))) {
            TinkerClient tinker = new TinkerClient(restarted, key);
            int done = 0;
            int failed = 0;
            for (String id : accepted) {
                // Pending until the restarted process finds the killed one's heartbeat stale (2 s here), then failed.
                Map<String, Object> answer = tinker.await(id);
                if (answer.containsKey("metrics")) {
                    done++;
                } else {
                    assertEquals("server", answer.get("category"), "neither done nor failed: " + answer);
                    failed++;
                }
            }
            assertEquals(accepted.size(), done + failed);
            assertTrue(done >= 1, "the operation finished before the kill keeps its result");
            System.out.println("kill -9: " + done + " operations were done, " + failed + " failed as the server's");
        }
    }
}
