package dev.crucible.domain.model;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One saved adapter of a model.
 *
 * @param id identity and listing cursor
 * @param modelId the model it belongs to
 * @param step training step; 0 is the untrained (zero) adapter; never reused within a model
 * @param metrics numeric metrics, split-prefixed ({@code train/reward}, {@code val/reward}, ...)
 * @param createdAt creation time
 */
public record Checkpoint(CheckpointId id, ModelId modelId, int step, Map<String, Double> metrics, Instant createdAt) {

    public Checkpoint {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(modelId, "modelId");
        Objects.requireNonNull(createdAt, "createdAt");
        if (step < 0) {
            throw new IllegalArgumentException("step must be >= 0, got " + step);
        }
        metrics = Map.copyOf(Objects.requireNonNull(metrics, "metrics"));
    }

    /** The step-0 checkpoint every model starts with: the zero adapter, no metrics. */
    public static Checkpoint initial(ModelId modelId, Instant now) {
        return new Checkpoint(CheckpointId.random(), modelId, 0, Map.of(), now);
    }

    /** This checkpoint with {@code update} merged over its metrics (new keys win). */
    public Checkpoint withMetrics(Map<String, Double> update) {
        Map<String, Double> merged = new TreeMap<>(metrics);
        merged.putAll(update);
        return new Checkpoint(id, modelId, step, merged, createdAt);
    }
}
