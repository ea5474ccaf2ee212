package dev.crucible.application.job;

import dev.crucible.runtime.training.LogprobDrift;
import java.util.Map;

/** How a trainer reports as it goes; implementations write events at once. Used from one thread. */
public interface TrainingProgress {

    /** Training begins: {@code numSequences} optimiser steps are planned. */
    void started(int numSequences, Map<String, Number> extra);

    /** One optimiser step finished, with numeric metrics only. */
    void gradientStep(Map<String, Number> metrics);

    /**
     * An RL step measured how far the trainer's log-probabilities are from the sampler's (its event carries the same
     * numbers); called after {@link #gradientStep}, or alone when the drift failed the step. The default ignores it.
     */
    default void samplerDrift(LogprobDrift drift) {
    }

    /** True once the job was cancelled or taken away from this runner; the trainer should stop. */
    boolean cancelled();
}
