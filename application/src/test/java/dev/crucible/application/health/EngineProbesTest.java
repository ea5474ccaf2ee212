package dev.crucible.application.health;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.crucible.application.fakes.FakeEngine;
import dev.crucible.engine.spi.Capability;
import java.util.List;
import org.junit.jupiter.api.Test;

class EngineProbesTest {

    private static String failure(Probe probe) {
        return assertThrows(IllegalStateException.class, probe::probe).getMessage();
    }

    @Test
    void inferencePassesWhenOneCapableEngineIsHealthy() {
        assertDoesNotThrow(() -> EngineProbes.inference(List.of(
                FakeEngine.sick("onnx", "no runtime", Capability.INFERENCE),
                FakeEngine.healthy("djl", Capability.INFERENCE, Capability.TRAINING))).probe());
    }

    @Test
    void inferenceFailsWithoutAnEngineThatHasTheCapability() {
        assertEquals("inference is not available: no installed engine has the INFERENCE capability",
                failure(EngineProbes.inference(List.of(FakeEngine.healthy("trainer", Capability.TRAINING)))));
        assertEquals("inference is not available: no installed engine has the INFERENCE capability",
                failure(EngineProbes.inference(List.of())));
    }

    @Test
    void inferenceFailsWhenEveryCapableEngineIsUnhealthyNamingThem() {
        assertEquals("no inference engine is healthy: djl (CUDA out of memory), onnx (no runtime)",
                failure(EngineProbes.inference(List.of(
                        FakeEngine.healthy("trainer", Capability.TRAINING),
                        FakeEngine.sick("djl", "CUDA out of memory", Capability.INFERENCE),
                        FakeEngine.sick("onnx", "no runtime", Capability.INFERENCE)))));
    }

    @Test
    void allPassesWhenEveryEngineIsHealthy() {
        assertDoesNotThrow(() -> EngineProbes.all(List.of(FakeEngine.healthy("djl"), FakeEngine.healthy("onnx"))).probe());
        assertDoesNotThrow(() -> EngineProbes.all(List.of()).probe());
    }

    @Test
    void allFailsNamingOnlyTheUnhealthyEngines() {
        assertEquals("unhealthy engines: onnx (no runtime)", failure(EngineProbes.all(List.of(
                FakeEngine.healthy("djl", Capability.INFERENCE),
                FakeEngine.sick("onnx", "no runtime", Capability.INFERENCE)))));
    }
}
