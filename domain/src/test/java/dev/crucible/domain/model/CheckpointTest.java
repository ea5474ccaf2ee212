package dev.crucible.domain.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CheckpointTest {

    private static final Instant NOW = Instant.parse("2025-03-01T10:00:00Z");
    private static final ModelId MODEL = ModelId.random();

    @Test
    void initialIsStep0WithoutMetrics() {
        Checkpoint initial = Checkpoint.initial(MODEL, NOW);
        assertEquals(0, initial.step());
        assertEquals(Map.of(), initial.metrics());
        assertEquals(MODEL, initial.modelId());
        assertEquals(NOW, initial.createdAt());
    }

    @Test
    void withMetricsMergesAndNewKeysWin() {
        Checkpoint checkpoint = new Checkpoint(CheckpointId.random(), MODEL, 3,
                Map.of("train/reward", 0.5, "train/loss", 2.0), NOW);
        Checkpoint updated = checkpoint.withMetrics(Map.of("train/reward", 0.9, "val/reward", 0.7));
        assertEquals(Map.of("train/reward", 0.9, "train/loss", 2.0, "val/reward", 0.7), updated.metrics());
        assertEquals(checkpoint.id(), updated.id());
        assertEquals(3, updated.step());
        assertEquals(MODEL, updated.modelId());
        assertEquals(NOW, updated.createdAt());
    }

    @Test
    void withMetricsLeavesTheOriginalUnchanged() {
        Checkpoint checkpoint = new Checkpoint(CheckpointId.random(), MODEL, 1, Map.of("a", 1.0), NOW);
        checkpoint.withMetrics(Map.of("a", 2.0));
        assertEquals(Map.of("a", 1.0), checkpoint.metrics());
    }

    @Test
    void metricsAreAnImmutableCopy() {
        Map<String, Double> source = new HashMap<>(Map.of("a", 1.0));
        Checkpoint checkpoint = new Checkpoint(CheckpointId.random(), MODEL, 1, source, NOW);
        source.put("b", 2.0);
        assertEquals(Map.of("a", 1.0), checkpoint.metrics());
        assertThrows(UnsupportedOperationException.class, () -> checkpoint.metrics().put("c", 3.0));
    }

    @Test
    void rejectsANegativeStep() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Checkpoint(CheckpointId.random(), MODEL, -1, Map.of(), NOW));
        assertEquals("step must be >= 0, got -1", e.getMessage());
    }

    @Test
    void rejectsNullFields() {
        CheckpointId id = CheckpointId.random();
        assertThrows(NullPointerException.class, () -> new Checkpoint(null, MODEL, 0, Map.of(), NOW));
        assertThrows(NullPointerException.class, () -> new Checkpoint(id, null, 0, Map.of(), NOW));
        assertThrows(NullPointerException.class, () -> new Checkpoint(id, MODEL, 0, null, NOW));
        assertThrows(NullPointerException.class, () -> new Checkpoint(id, MODEL, 0, Map.of(), null));
    }
}
