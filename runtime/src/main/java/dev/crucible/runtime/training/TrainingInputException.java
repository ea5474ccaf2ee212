package dev.crucible.runtime.training;

/**
 * A job's input cannot be trained on; the message names where (a trajectory, a dataset line) and becomes the job's
 * {@code error_message}. Thrown while preparing a job and caught by {@link LoraJobTrainer}, never beyond it.
 */
public final class TrainingInputException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public TrainingInputException(String message) {
        super(message, null, false, false);
    }
}
