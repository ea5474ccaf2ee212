package dev.crucible.application.primitives;

import dev.crucible.kernel.invariant.NonNull;
import java.time.Instant;
import java.util.Optional;

/**
 * A training run as Tinker's {@code training_runs} routes show it.
 *
 * @param lastRequestTime       when its last operation was accepted (its creation when it has none)
 * @param lastCheckpoint        its newest {@code weights} state, if any
 * @param lastSamplerCheckpoint its newest {@code sampler_weights} state, if any
 */
public record RunSummary(TrainingRun run, Instant lastRequestTime, Optional<RunCheckpoint> lastCheckpoint,
        Optional<RunCheckpoint> lastSamplerCheckpoint) {

    public RunSummary {
        NonNull.components(RunSummary.class, run, lastRequestTime, lastCheckpoint, lastSamplerCheckpoint);
    }
}
