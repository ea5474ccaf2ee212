package dev.crucible.engine.djl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.engine.spi.Capability;
import dev.crucible.engine.spi.EngineHealth;
import dev.crucible.engine.spi.EngineProvider;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class DjlEngineProviderTest {

    @Test
    void isFoundByServiceLoaderUnderTheNameDjl() {
        List<EngineProvider> djl = ServiceLoader.load(EngineProvider.class).stream().map(ServiceLoader.Provider::get)
                .filter(p -> p.name().equals("djl")).toList();

        assertEquals(1, djl.size());
        assertTrue(djl.getFirst() instanceof DjlEngineProvider);
    }

    @Test
    void offersInferenceWithLoraAndClaimsCudaOnlyWithACudaBuildOfLibtorch() {
        var capabilities = new DjlEngineProvider().capabilities();

        assertTrue(capabilities.contains(Capability.INFERENCE));
        assertTrue(capabilities.contains(Capability.LORA_INFERENCE));
        assertEquals("cpu", DjlGpuProbe.bundledFlavor(), "the build bundles the CPU libtorch");
        assertFalse(capabilities.contains(Capability.CUDA));
    }

    @Test
    void isHealthyWhenPyTorchLoadsAndThenRunsOffline() {
        EngineHealth health = new DjlEngineProvider().health();

        assertTrue(health.ok(), health.detail());
        assertTrue(health.detail().startsWith("PyTorch 2.7.1"), health.detail());
        if (System.getenv("DJL_OFFLINE") == null) {
            assertEquals("true", System.getProperty("ai.djl.offline"));
        }
    }
}
