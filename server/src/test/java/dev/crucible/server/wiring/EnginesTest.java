package dev.crucible.server.wiring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.engine.spi.Capability;
import dev.crucible.engine.spi.EngineHealth;
import dev.crucible.engine.spi.EngineProvider;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The serving and training engines' choice: configured by name, else the ranks the engines declare, whatever order
 * plugins were found in.
 */
class EnginesTest {

    private static final EngineProvider ONNX = new Fake("onnx", 10, EnumSet.of(Capability.INFERENCE,
            Capability.LORA_INFERENCE));
    private static final EngineProvider DJL = new Fake("djl", 20, EnumSet.of(Capability.INFERENCE,
            Capability.LORA_INFERENCE, Capability.TRAINING));
    private static final EngineProvider OTHER = new Fake("another", Integer.MAX_VALUE,
            EnumSet.of(Capability.INFERENCE));
    private static final EngineProvider TRAINER = new Fake("trainer", 30, EnumSet.of(Capability.TRAINING));

    @Test
    void withoutConfigurationTheDeclaredRanksWinOverDiscoveryOrder() {
        assertEquals(List.of(ONNX, DJL, OTHER), Engines.inference(List.of(OTHER, DJL, TRAINER, ONNX), ""));
        assertEquals(List.of(ONNX, DJL), Engines.inference(List.of(DJL, ONNX), null));
    }

    @Test
    void enginesOfTheSameRankGoByName() {
        EngineProvider zeta = new Fake("zeta", 10, EnumSet.of(Capability.INFERENCE));

        assertEquals(List.of(ONNX, zeta), Engines.inference(List.of(zeta, ONNX), ""));
    }

    @Test
    void theInstalledEnginesServeOnnxFirstThenDjlAndTrainOnDjl() {
        List<EngineProvider> installed = Engines.load("");

        assertEquals(List.of("onnx", "djl"), Engines.inference(installed, "").stream().map(EngineProvider::name)
                .toList());
        assertEquals("djl", Engines.training(installed).orElseThrow().name());
    }

    @Test
    void aConfiguredEngineIsTheOnlyOneTried() {
        assertEquals(List.of(ONNX), Engines.inference(List.of(DJL, ONNX), "onnx"));
        assertEquals(List.of(DJL), Engines.inference(List.of(DJL, ONNX), " djl "));
    }

    @Test
    void aConfiguredEngineThatIsMissingOrCannotInferFailsNamingTheOnesThatCan() {
        var missing = assertThrows(IllegalArgumentException.class,
                () -> Engines.inference(List.of(DJL, TRAINER), "onnx"));
        assertTrue(missing.getMessage().contains("'onnx'") && missing.getMessage().contains("djl"),
                missing.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Engines.inference(List.of(DJL, TRAINER), "trainer"));
        assertThrows(IllegalArgumentException.class, () -> Engines.inference(List.of(TRAINER), ""));
    }

    @Test
    void trainingRunsOnTheBestRankedEngineThatCanTrain() {
        assertEquals(Optional.of(DJL), Engines.training(List.of(TRAINER, ONNX, DJL)));
        assertEquals(Optional.empty(), Engines.training(List.of(ONNX, OTHER)));
    }

    private record Fake(String name, int rank, Set<Capability> capabilities) implements EngineProvider {

        @Override
        public EngineHealth health() {
            return EngineHealth.healthy();
        }
    }
}
