package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.application.inference.serving.ServedModels;
import dev.crucible.runtime.generation.GeneratorSnapshot;
import dev.crucible.server.support.TestServer;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A server on the ONNX engine has run its warm-up chats on every model before it listens (two chats a model, their
 * tokens decoded); with {@code crucible.inference.warm-up: false} it runs none, and neither does a server on the tests'
 * scripted engine, whose forwards the tests gate. That the warm-up bills nobody is {@code UsageIT}'s: its buckets add
 * up to exactly the completions its clients made.
 */
class WarmUpIT {

    @Test
    void everyModelOnTheOnnxEngineRanItsWarmUpChatsBeforeTheServerListened() {
        try (TestServer server = TestServer.start(Map.of("crucible.inference-engine", "onnx"))) {
            ServedModels served = server.bean(ServedModels.class);
            for (String name : served.names()) {
                GeneratorSnapshot warmed = served.find(name).orElseThrow().generator().snapshot();
                assertEquals(2, warmed.admitted(), name + ": a greedy chat and a sampled one");
                assertTrue(warmed.generatedTokens() >= 2 && warmed.forwards() >= 2, name + ": " + warmed);
                assertEquals(0, warmed.running() + warmed.waiting(), name + ": both ended before it listened");
            }
        }
    }

    @Test
    void theSettingOffLeavesTheModelsCold() {
        try (TestServer server = TestServer.start(Map.of("crucible.inference-engine", "onnx",
                "crucible.inference.warm-up", false))) {
            ServedModels served = server.bean(ServedModels.class);
            for (String name : served.names()) {
                assertEquals(0, served.find(name).orElseThrow().generator().snapshot().admitted(), name);
            }
        }
    }

    @Test
    void aScriptedModelSeesNoForwardBeforeItsFirstRequest() {
        try (TestServer server = TestServer.start(Map.of("test.scripted-model", "true"))) {
            GeneratorSnapshot cold = server.bean(ServedModels.class).find(TestServer.BASE_MODEL).orElseThrow()
                    .generator().snapshot();
            assertEquals(0, cold.admitted());
            assertEquals(0, cold.forwards());
        }
    }
}
