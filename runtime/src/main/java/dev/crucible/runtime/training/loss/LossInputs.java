package dev.crucible.runtime.training.loss;

import java.util.Arrays;

/**
 * One datum's per-position loss inputs, each as long as the datum's positions: Tinker's {@code weights},
 * {@code advantages} and {@code logprobs} (the sampler's log-probability of each target). An input the loss does not
 * read is an empty array.
 */
public record LossInputs(float[] weights, float[] advantages, float[] samplerLogprobs) {

    public LossInputs {
        weights = weights == null ? new float[0] : weights.clone();
        advantages = advantages == null ? new float[0] : advantages.clone();
        samplerLogprobs = samplerLogprobs == null ? new float[0] : samplerLogprobs.clone();
    }

    @Override
    public float[] weights() {
        return weights.clone();
    }

    @Override
    public float[] advantages() {
        return advantages.clone();
    }

    @Override
    public float[] samplerLogprobs() {
        return samplerLogprobs.clone();
    }

    /**
     * The sampler's log-probability at each position the RL losses train (a non-zero advantage), NaN elsewhere: a
     * Tinker client sends a placeholder (the cookbook: 0) at the prompt's positions, with advantage 0, which is no
     * sampler's measurement. An empty array when the datum carries no sampler log-probabilities.
     */
    public float[] trainedSamplerLogprobs() {
        float[] out = new float[samplerLogprobs.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = i < advantages.length && advantages[i] != 0 ? samplerLogprobs[i] : Float.NaN;
        }
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LossInputs l && Arrays.equals(weights, l.weights) && Arrays.equals(advantages, l.advantages)
                && Arrays.equals(samplerLogprobs, l.samplerLogprobs);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Arrays.hashCode(weights) + Arrays.hashCode(advantages)) + Arrays.hashCode(samplerLogprobs);
    }

    @Override
    public String toString() {
        return "LossInputs[" + Math.max(weights.length, Math.max(advantages.length, samplerLogprobs.length))
                + " positions]";
    }
}
