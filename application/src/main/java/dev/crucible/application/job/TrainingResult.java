package dev.crucible.application.job;

import java.util.Map;
import java.util.Objects;

/** How a training run ended. */
public sealed interface TrainingResult {

    /** An adapter was trained; the runner records it as the model's next checkpoint with {@code metrics}. */
    record Trained(Map<String, Double> metrics) implements TrainingResult {
        public Trained {
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
