package dev.crucible.runtime.training.loss;

import dev.crucible.engine.spi.TokenObjective;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Builds a loss function's {@link TokenObjective} for one {@code forward_backward} call. The inputs are checked by
 * the caller (lengths, names, settings); the objective is a pure function of the learner's log-probabilities.
 */
public final class Losses {

    private Losses() {
    }

    /**
     * @param function the loss
     * @param config   its settings by name, only those of {@link LossFunction#settings()}; a missing one takes its
     *                 default
     * @param data     one entry per datum, its arrays as long as the datum's positions
     */
    public static TokenObjective objective(LossFunction function, Map<String, Double> config, List<LossInputs> data) {
        Objects.requireNonNull(config, "config");
        List<LossInputs> inputs = List.copyOf(data);
        return switch (function) {
            case CROSS_ENTROPY -> logprobs -> {
                double loss = 0;
                List<float[]> gradients = new ArrayList<>(logprobs.size());
                for (int d = 0; d < logprobs.size(); d++) {
                    float[] lp = logprobs.get(d);
                    float[] w = inputs.get(d).weights();
                    float[] g = new float[lp.length];
                    for (int i = 0; i < lp.length; i++) {
                        loss -= (double) lp[i] * w[i];
                        g[i] = -w[i];
                    }
                    gradients.add(g);
                }
                return new TokenObjective.Evaluation(loss, gradients);
            };
        };
    }
}
