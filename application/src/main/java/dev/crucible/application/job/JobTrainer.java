package dev.crucible.application.job;

import dev.crucible.domain.job.JobSpec;
import dev.crucible.domain.job.TrainingJob;

/**
 * Trains one job. Called on the runner's thread; may block for as long as training takes.
 *
 * <p>Contract: report {@code training_started} and one {@code gradient_step} per optimiser step through
 * {@code progress}, stop early when {@link TrainingProgress#cancelled()} turns true, and return the outcome
 * instead of throwing for anything the job's input or the engine caused. A thrown exception is treated as a
 * bug and fails the job with a generic message.
 */
public interface JobTrainer {

    TrainingResult train(TrainingJob job, JobSpec spec, TrainingProgress progress);
}
