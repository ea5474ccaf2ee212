package dev.crucible.application.primitives;

import dev.crucible.domain.model.ModelId;
import dev.crucible.kernel.invariant.NonNull;
import java.time.Instant;

/**
 * A named saved state of a run, {@code tinker://<run>/<kind>/<name>}: the Crucible checkpoint {@code step} of the
 * run's model under a name of kind {@link TinkerPath#WEIGHTS} or {@link TinkerPath#SAMPLER_WEIGHTS}.
 */
public record SavedState(ModelId run, String kind, String name, int step, Instant createdAt) {

    public SavedState {
        NonNull.components(SavedState.class, run, kind, name, createdAt);
        if (!kind.equals(TinkerPath.WEIGHTS) && !kind.equals(TinkerPath.SAMPLER_WEIGHTS)) {
            throw new IllegalArgumentException("kind must be weights or sampler_weights, got " + kind);
        }
        if (step < 1) {
            throw new IllegalArgumentException("step must be >= 1, got " + step);
        }
    }

    public TinkerPath path() {
        return new TinkerPath(run, kind, name);
    }
}
