package dev.crucible.server.wiring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.application.model.SchedulingPolicy;
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
        assertEquals(new ModelSpec(Path.of("/models/qwen"), Optional.empty(), SchedulingPolicy.FCFS),
                models.get("qwen"));
        assertEquals(new ModelSpec(Path.of("/models/llama"), Optional.of(Precision.INT4), SchedulingPolicy.FCFS),
                models.get("llama"));
        assertEquals(Map.of(), ModelSpec.parse(null, null));
    }

    @Test
    void aModelIsScheduledFirstComeFirstServedUnlessConfiguredOtherwise() {
        Map<String, ModelSpec> models = ModelSpec.parse(List.of("qwen=/q", "llama=/l", "phi=/p"), List.of(),
                List.of("llama=priority", "phi=fcfs"));

        assertEquals(SchedulingPolicy.FCFS, models.get("qwen").scheduling());
        assertEquals(SchedulingPolicy.PRIORITY, models.get("llama").scheduling());
        assertEquals(SchedulingPolicy.FCFS, models.get("phi").scheduling());
        assertEquals(Map.of(), ModelSpec.parse(null, null, null));
    }

    @Test
    void badSchedulingEntriesFailStartUpNamingThem() {
        assertSchedulingRefused("model 'qwen': scheduling policy must be fcfs or priority, got 'lifo'",
                List.of("qwen=lifo"));
        assertSchedulingRefused("a scheduling policy is given for model 'llama', which is not served",
                List.of("llama=priority"));
        assertSchedulingRefused("expected NAME=POLICY, got 'qwen'", List.of("qwen"));
        assertSchedulingRefused("model 'qwen' is configured twice", List.of("qwen=fcfs", "qwen=priority"));
    }

    private static void assertSchedulingRefused(String message, List<String> scheduling) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ModelSpec.parse(List.of("qwen=/a"), List.of(), scheduling));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    @Test
    void badEntriesFailStartUpNamingThem() {
        assertRefused("expected NAME=PATH, got 'qwen'", List.of("qwen"), List.of());
        assertRefused("model 'qwen' is configured twice", List.of("qwen=/a", "qwen=/b"), List.of());
        assertRefused("a precision is given for model 'llama', which is not served", List.of("qwen=/a"),
                List.of("llama=int4"));
        assertRefused("model 'qwen': precision must be one of f32, int4, int8, got 'fp8'", List.of("qwen=/a"),
                List.of("qwen=fp8"));
        assertRefused("expected NAME=PRECISION, got 'qwen='", List.of("qwen=/a"), List.of("qwen="));
    }

    private static void assertRefused(String message, List<String> specs, List<String> precisions) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ModelSpec.parse(specs, precisions));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }
}
