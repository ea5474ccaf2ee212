package dev.crucible.server.tinker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.application.primitives.Operation;
import dev.crucible.application.primitives.OperationKind;
import dev.crucible.application.primitives.OperationLog;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.server.support.TestServer;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The restart rule: an operation a process accepted and never finished is answered, after a restart, as a failure of
 * category {@code server}; finished ones keep their results; the run's in-memory state is gone, so its next operation
 * fails as the user's to fix (load a saved state into a new run).
 */
class TinkerRestartIT {

    @Test
    void pendingOperationsFailAsTheServersFaultAfterARestartAndResultsStay() {
        Path data = TestServer.newDataDir();
        String database;
        String key;
        String model;
        String finished;
        UUID pending = UUID.randomUUID();
        try (TestServer first = TestServer.start(Map.of())) {
            database = first.databaseUrl();
            key = first.newKey("rita");
            TinkerClient tinker = new TinkerClient(first, key);
            model = tinker.createModel(TestServer.BASE_MODEL, 2);
            finished = tinker.submit("forward_backward", TinkerClient.forwardBackward(model, 1, "cross_entropy",
                    List.of(TinkerClient.teaching(5, 6, 7))));
            assertTrue(tinker.await(finished).containsKey("metrics"));
            // an operation accepted and still in flight when the process dies
            ModelId run = new ModelId(UUID.fromString(model));
            first.bean(OperationLog.class).insertUnlessSequenced(new Operation(pending, new EntityName("rita"),
                    OperationKind.FORWARD_BACKWARD, Optional.of(run), Optional.of(Operation.runSequence(run)),
                    OptionalLong.of(2), "sha:in-flight", Instant.now()));
        }
        try (TestServer second = TestServer.start(database, data, Map.of())) {
            TinkerClient tinker = new TinkerClient(second, key);
            Map<String, Object> failed = tinker.await(pending.toString());
            assertEquals("server", failed.get("category"), failed.toString());
            assertTrue(tinker.await(finished).containsKey("metrics"), "a finished result survives the restart");
            Map<String, Object> lost = tinker.await(tinker.submit("forward_backward", TinkerClient.forwardBackward(
                    model, 3, "cross_entropy", List.of(TinkerClient.teaching(5, 6, 7)))));
            assertEquals("user", lost.get("category"), lost.toString());
            assertTrue(String.valueOf(lost.get("error")).contains("load_weights"), lost.toString());
        }
    }
}
