package dev.crucible.application.primitives;

import dev.crucible.kernel.invariant.NonNull;
import java.util.OptionalLong;

/**
 * A saved state as Tinker's checkpoint list shows it: its id {@code <kind>/<name>} (two path segments), its type
 * ({@code training} for {@code weights}, {@code sampler} for {@code sampler_weights}) and the size of its files.
 *
 * @param sizeBytes the bytes of the checkpoint's adapter folder; empty when its files are gone
 */
public record RunCheckpoint(SavedState state, OptionalLong sizeBytes) {

    public RunCheckpoint {
        NonNull.components(RunCheckpoint.class, state, sizeBytes);
    }

    public String checkpointId() {
        return state.kind() + "/" + state.name();
    }

    public String checkpointType() {
        return state.kind().equals(TinkerPath.WEIGHTS) ? "training" : "sampler";
    }
}
