package dev.crucible.server.wiring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.engine.spi.Precision;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ModelSpecTest {

    @Test
    void eachModelKeepsItsPathInOrderWithThePrecisionAskedForIfAny() {
        Map<String, ModelSpec> models = ModelSpec.parse(List.of("qwen=/models/qwen", " llama = /models/llama "),
                List.of("llama=int4"));

        assertEquals(List.of("qwen", "llama"), List.copyOf(models.keySet()));
        assertEquals(new ModelSpec(Path.of("/models/qwen"), Optional.empty()), models.get("qwen"));
        assertEquals(new ModelSpec(Path.of("/models/llama"), Optional.of(Precision.INT4)), models.get("llama"));
        assertEquals(Map.of(), ModelSpec.parse(null, null));
    }

    @Test
    void badEntriesFailStartUpNamingThem() {
        assertRefused("expected NAME=PATH, got 'qwen'", List.of("qwen"), List.of());
        assertRefused("model 'qwen' is configured twice", List.of("qwen=/a", "qwen=/b"), List.of());
        assertRefused("a precision is given for model 'llama', which is not served", List.of("qwen=/a"),
                List.of("llama=int4"));
        assertRefused("model 'qwen': precision must be one of f32, int4, got 'fp8'", List.of("qwen=/a"),
                List.of("qwen=fp8"));
        assertRefused("expected NAME=PRECISION, got 'qwen='", List.of("qwen=/a"), List.of("qwen="));
    }

    private static void assertRefused(String message, List<String> specs, List<String> precisions) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ModelSpec.parse(specs, precisions));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }
}
