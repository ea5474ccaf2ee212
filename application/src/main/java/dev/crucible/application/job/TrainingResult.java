package dev.crucible.application.job;

import java.util.Map;
import java.util.Objects;

/** How a training run ended. */
public sealed interface TrainingResult {

    /**
     * An adapter was trained and stored as checkpoint {@code step}, the step the trainer took from the model's
     * {@link dev.crucible.domain.model.CheckpointSteps} when it started; the runner records that checkpoint with
     * {@code metrics}, and never a step of its own choosing, so the adapter's files and its row always agree.
     */
    record Trained(int step, Map<String, Double> metrics) implements TrainingResult {
        public Trained {
            if (step < 0) {
                throw new IllegalArgumentException("step must be >= 0, got " + step);
            }
            metrics = Map.copyOf(Objects.requireNonNull(metrics, "metrics"));
        }
    }

    /** The job failed; {@code message} is what the client sees as {@code error_message}. */
    record Failed(String message) implements TrainingResult {
        public Failed {
            Objects.requireNonNull(message, "message");
        }
    }
}
