package dev.crucible.engine.spi;

import java.util.List;
import java.util.Objects;

/**
 * A training loss written as a function of the trained tokens' log-probabilities under the current adapter. An
 * engine computes the log-probabilities with gradients attached, hands their values here, and back-propagates
 * {@code sum over tokens of gradient * logprob}: by the chain rule this gives the loss's exact gradient with respect
 * to the adapter, so every loss (cross-entropy, PPO, CISPO, KL-shaped advantages) is written once, outside the
 * engines, and checked on its own. Implementations are pure functions.
 */
@FunctionalInterface
public interface TokenObjective {

    /**
     * @param logprobs one array per sequence of the batch, one value per target, in target order
     * @return the loss of the batch and its partial derivatives with respect to each log-probability
     */
    Evaluation evaluate(List<float[]> logprobs);

    /**
     * Whether the loss's derivative at one target can be other than zero. A target where it cannot (a zero weight, a
     * zero advantage) adds nothing to the gradient whatever its log-probability, so an engine may score it without
     * recording it for the backward pass; its log-probability is still measured and handed to {@link #evaluate}.
     *
     * @param sequence the sequence's index in the batch
     * @param target   the target's index within the sequence, in target order
     * @return {@code true} unless the derivative is zero for every log-probability; the default says every target
     *         counts
     */
    default boolean graded(int sequence, int target) {
        return true;
    }

    /**
     * Whether the engine measures the entropy of the next-token distribution at each target, a training metric
     * ({@link TrainingBatchResult#entropies}); it costs a pass over the vocabulary at every target. The default says
     * it does.
     */
    default boolean measuresEntropy() {
        return true;
    }

    /**
     * @param loss      the batch's contribution to the optimiser step's loss
     * @param gradients {@code d loss / d logprobs}, shaped exactly as the input
     */
    record Evaluation(double loss, List<float[]> gradients) {
        public Evaluation {
            gradients = List.copyOf(Objects.requireNonNull(gradients, "gradients"));
        }
    }
}
