package dev.crucible.application.job;

import java.util.Map;

/** How a trainer reports as it goes; implementations write events at once. Used from one thread. */
public interface TrainingProgress {

    /** Training begins: {@code numSequences} optimiser steps are planned. */
    void started(int numSequences, Map<String, Number> extra);

    /** One optimiser step finished, with numeric metrics only. */
    void gradientStep(Map<String, Number> metrics);

    /** True once the job was cancelled or taken away from this runner; the trainer should stop. */
    boolean cancelled();
}
