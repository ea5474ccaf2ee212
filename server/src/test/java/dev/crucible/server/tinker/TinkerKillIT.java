package dev.crucible.server.tinker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.ChildServer;
import dev.crucible.server.support.TestServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * kill -9 with futures in flight: a server in its own JVM accepts a queue of forward_backward operations and is killed
 * with SIGKILL; after a restart on the same database every accepted request id answers either its result or, once the
 * killed process's heartbeat is stale, a failure of category {@code server}: none is lost, none stays pending.
 */
class TinkerKillIT {

    @Test
    void everyAcceptedOperationIsAnsweredAfterAKill() throws Exception {
        ChildServer.Started child = ChildServer.startFresh("kim");
        List<String> accepted = new ArrayList<>();
        String key = child.key();
        try (child) {
            TinkerClient tinker = new TinkerClient(new Api(child.url(), null).withHeader("X-API-Key", "tml-" + key));
            String model = tinker.createModel(TestServer.BASE_MODEL, 4);
            List<Map<String, Object>> batch = TinkerClient.heavyBatch();
            for (int seq = 1; seq <= 24; seq++) {
                accepted.add(tinker.submit("forward_backward", TinkerClient.forwardBackward(model, seq,
                        "cross_entropy", batch)));
                if (seq == 1) {
                    tinker.await(accepted.getFirst()); // one finished before the kill, the rest queued or running
                }
            }
            child.kill(Duration.ofSeconds(60));
        }
        try (TestServer restarted = TestServer.start(child.database(), child.dataDir(),
                Map.of("crucible.primitives.long-poll", "1s"))) {
            TinkerClient tinker = new TinkerClient(restarted, key);
            // Pending until the restarted process finds the killed one's heartbeat stale (2 s here), then failed.
            int[] counts = tinker.doneOrServerFailures(accepted);
            int done = counts[0];
            int failed = counts[1];
            assertEquals(accepted.size(), done + failed);
            assertTrue(done >= 1, "the operation finished before the kill keeps its result");
            System.out.println("kill -9: " + done + " operations were done, " + failed + " failed as the server's");
        }
    }
}
