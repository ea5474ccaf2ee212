package dev.crucible.application.job;

import dev.crucible.domain.job.JobType;
import java.time.Duration;

/**
 * What the job runner reports for operators to count (the server turns it into metrics). Called on the runner's
 * thread; implementations are quick and never throw.
 */
public interface TrainingObserver {

    /** Reports nothing. */
    TrainingObserver NONE = new TrainingObserver() {
    };

    /**
     * One optimiser step of a job of {@code type} finished.
     *
     * @param tokens  the tokens of its batch
     * @param elapsed from the end of the step before (or from the start of training) to the end of this one
     */
    default void gradientStep(JobType type, long tokens, Duration elapsed) {
    }

    /**
     * A job of {@code type} ended, {@code ran} after this runner claimed it.
     *
     * @param outcome {@code completed}, {@code failed}, or {@code lost} (ended elsewhere meanwhile: cancelled by a
     *                model deletion, or failed as orphaned)
     */
    default void jobEnded(JobType type, String outcome, Duration ran) {
    }
}
