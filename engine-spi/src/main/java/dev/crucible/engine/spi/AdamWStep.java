package dev.crucible.engine.spi;

/**
 * The settings of one AdamW step, which may differ from step to step (Tinker sends {@code adam_params} with every
 * {@code optim_step}): {@code torch.optim.AdamW}'s, with decoupled weight decay, bias correction by the current betas
 * and the step count, {@code eps} added outside the square root, and {@code torch.nn.utils.clip_grad_norm_} before it.
 *
 * @param learningRate finite, &gt;= 0
 * @param beta1        first-moment decay, in [0, 1)
 * @param beta2        second-moment decay, in [0, 1)
 * @param epsilon      denominator term, finite, &gt; 0
 * @param weightDecay  decoupled weight decay, finite, &gt;= 0
 * @param maxGradNorm  the global L2 norm the gradients are scaled down to; no clipping when it is not finite or not
 *                     positive (Tinker's {@code grad_clip_norm} of 0)
 */
public record AdamWStep(double learningRate, double beta1, double beta2, double epsilon, double weightDecay,
        double maxGradNorm) {

    public AdamWStep {
        if (!(learningRate >= 0) || !Double.isFinite(learningRate)) {
            throw new IllegalArgumentException("learningRate must be finite and >= 0, got " + learningRate);
        }
        if (!(beta1 >= 0 && beta1 < 1)) {
            throw new IllegalArgumentException("beta1 must be in [0, 1), got " + beta1);
        }
        if (!(beta2 >= 0 && beta2 < 1)) {
            throw new IllegalArgumentException("beta2 must be in [0, 1), got " + beta2);
        }
        if (!(epsilon > 0) || !Double.isFinite(epsilon)) {
            throw new IllegalArgumentException("epsilon must be finite and > 0, got " + epsilon);
        }
        if (!(weightDecay >= 0) || !Double.isFinite(weightDecay)) {
            throw new IllegalArgumentException("weightDecay must be finite and >= 0, got " + weightDecay);
        }
    }

    /** Whether the gradients are clipped before the step: {@code maxGradNorm} finite and positive. */
    public boolean clips() {
        return maxGradNorm > 0 && Double.isFinite(maxGradNorm);
    }
}
