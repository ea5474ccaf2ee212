package dev.crucible.engine.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class EngineHealthTest {

    @Test
    void healthProbesNameTheDescriptionOrTheEngineFailure() {
        assertEquals(new EngineHealth(true, "runtime 1.0"), EngineHealth.probe(() -> "runtime 1.0"));
        assertEquals(EngineHealth.unhealthy("natives missing"), EngineHealth.probe(() -> {
            throw new EngineException(EngineException.Reason.RUNTIME_UNAVAILABLE, "natives missing");
        }));
    }
}
