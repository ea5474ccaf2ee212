package dev.crucible.server.wiring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.engine.spi.Capability;
import dev.crucible.engine.spi.EngineHealth;
import dev.crucible.engine.spi.EngineProvider;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The serving engine's choice: configured by name, else the declared order, whatever order plugins were found in. */
class InferenceEnginesTest {

    private static final EngineProvider ONNX = new Fake("onnx", EnumSet.of(Capability.INFERENCE,
            Capability.LORA_INFERENCE));
    private static final EngineProvider DJL = new Fake("djl", EnumSet.of(Capability.INFERENCE,
            Capability.LORA_INFERENCE, Capability.TRAINING));
    private static final EngineProvider OTHER = new Fake("another", EnumSet.of(Capability.INFERENCE));
    private static final EngineProvider TRAINER = new Fake("trainer", EnumSet.of(Capability.TRAINING));

    @Test
    void withoutConfigurationTheDeclaredOrderWinsOverDiscoveryOrder() {
        assertEquals(List.of(ONNX, DJL, OTHER), InferenceEngines.order(List.of(OTHER, DJL, TRAINER, ONNX), ""));
        assertEquals(List.of(ONNX, DJL), InferenceEngines.order(List.of(DJL, ONNX), null));
    }

    @Test
    void aConfiguredEngineIsTheOnlyOneTried() {
        assertEquals(List.of(ONNX), InferenceEngines.order(List.of(DJL, ONNX), "onnx"));
        assertEquals(List.of(DJL), InferenceEngines.order(List.of(DJL, ONNX), " djl "));
    }

    @Test
    void aConfiguredEngineThatIsMissingOrCannotInferFailsNamingTheOnesThatCan() {
        var missing = assertThrows(IllegalArgumentException.class,
                () -> InferenceEngines.order(List.of(DJL, TRAINER), "onnx"));
        assertTrue(missing.getMessage().contains("'onnx'") && missing.getMessage().contains("djl"),
                missing.getMessage());
        assertThrows(IllegalArgumentException.class, () -> InferenceEngines.order(List.of(DJL, TRAINER), "trainer"));
        assertThrows(IllegalArgumentException.class, () -> InferenceEngines.order(List.of(TRAINER), ""));
    }

    private record Fake(String name, Set<Capability> capabilities) implements EngineProvider {

        @Override
        public EngineHealth health() {
            return EngineHealth.healthy();
        }
    }
}
