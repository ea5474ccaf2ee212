package dev.crucible.domain.dataset;

import dev.crucible.domain.model.ModelId;
import java.util.Objects;

/**
 * A checkpoint named in lineage: the model and the step.
 *
 * @param model the model the checkpoint belongs to
 * @param step  its step, never negative
 */
public record CheckpointRef(ModelId model, int step) {

    public CheckpointRef {
        Objects.requireNonNull(model, "model");
        if (step < 0) {
            throw new IllegalArgumentException("step must be >= 0, got " + step);
        }
    }

    @Override
    public String toString() {
        return model + "@" + step;
    }
}
