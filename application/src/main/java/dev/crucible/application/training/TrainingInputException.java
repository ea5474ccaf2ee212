package dev.crucible.application.training;

/**
 * A job's input cannot be trained on; the message names where (a trajectory, a dataset line) and becomes the job's
 * {@code error_message}. Thrown while preparing a job and caught by {@link LoraJobTrainer}, never beyond it.
 */
final class TrainingInputException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    TrainingInputException(String message) {
        super(message, null, false, false);
    }
}
