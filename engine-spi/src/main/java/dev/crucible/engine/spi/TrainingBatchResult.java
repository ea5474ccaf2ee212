package dev.crucible.engine.spi;

import java.util.List;
import java.util.Objects;

/**
 * What {@link LoraTrainer#accumulate} measured on one batch, before the optimiser step.
 *
 * @param loss      the objective's loss
 * @param logprobs  each sequence's target log-probabilities under the adapter as it was, in target order
 * @param entropies each sequence's entropy of the next-token distribution at each target, in nats; empty when the
 *                  objective measures none ({@link TokenObjective#measuresEntropy})
 */
public record TrainingBatchResult(double loss, List<float[]> logprobs, List<float[]> entropies) {

    public TrainingBatchResult {
        logprobs = List.copyOf(Objects.requireNonNull(logprobs, "logprobs"));
        entropies = List.copyOf(Objects.requireNonNull(entropies, "entropies"));
    }
}
