package dev.crucible.application.job;

import dev.crucible.domain.job.JobType;
import dev.crucible.runtime.training.LogprobDrift;
import java.time.Duration;

/**
 * What the job runner reports for operators to count (the server turns it into metrics). Called on the runner's
 * thread; implementations are quick and never throw.
 */
public interface TrainingObserver {

    /** The {@code operation} of an RL job's gradient step. */
    String RL_JOB = "rl_job";
    /** The {@code operation} of a Tinker-style {@code forward_backward} with an RL loss. */
    String FORWARD_BACKWARD = "forward_backward";

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
     * An RL step measured how far the trainer's log-probabilities are from the sampler's.
     *
     * @param operation {@link #RL_JOB} or {@link #FORWARD_BACKWARD}
     */
    default void samplerDrift(String operation, LogprobDrift drift) {
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
