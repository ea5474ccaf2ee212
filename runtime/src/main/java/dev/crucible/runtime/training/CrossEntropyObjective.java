package dev.crucible.runtime.training;

import dev.crucible.engine.spi.TokenObjective;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * SFT's loss: the negative log-likelihood of the trained tokens, summed and divided by the trained tokens of the
 * whole batch (so micro-batches of one batch accumulate to the batch's mean, as gradient accumulation does).
 */
public final class CrossEntropyObjective implements TokenObjective {

    private final double batchTokens;

    public CrossEntropyObjective(long batchTokens) {
        if (batchTokens < 1) {
            throw new IllegalArgumentException("batchTokens must be >= 1, got " + batchTokens);
        }
        this.batchTokens = batchTokens;
    }

    @Override
    public Evaluation evaluate(List<float[]> logprobs) {
        double loss = 0;
        List<float[]> gradients = new ArrayList<>(logprobs.size());
        for (float[] lp : logprobs) {
            float[] g = new float[lp.length];
            Arrays.fill(g, (float) (-1 / batchTokens));
            for (float v : lp) {
                loss -= v / batchTokens;
            }
            gradients.add(g);
        }
        return new Evaluation(loss, gradients);
    }
}
