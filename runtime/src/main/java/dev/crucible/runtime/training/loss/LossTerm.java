package dev.crucible.runtime.training.loss;

import dev.crucible.kernel.refusal.Outcome;
import java.util.Map;

/**
 * A loss function with its settings resolved, at one position: the position's term of the sum, its derivative with
 * respect to the learner's log-probability {@code lp}, and whether clipping changed that derivative. {@code w} is the
 * weight, {@code a} the advantage and {@code q} the sampler's log-probability; each loss reads only its own inputs.
 *
 * @param low  the lower clip threshold (ppo, cispo)
 * @param high the upper clip threshold (ppo, cispo)
 * @param beta the weight of dro's quadratic penalty
 */
record LossTerm(LossFunction function, double low, double high, double beta) {

    /**
     * @throws IllegalArgumentException when {@code config} is not one {@link LossFunction#configure} accepts (the
     *                                  caller checks it first, so this is a bug)
     */
    static LossTerm of(LossFunction function, Map<String, Double> config) {
        Map<String, Double> resolved = switch (function.configure(config)) {
            case Outcome.Done<Map<String, Double>> done -> done.value();
            case Outcome.Refused<Map<String, Double>> refused ->
                    throw new IllegalArgumentException(refused.refusal().message());
        };
        return new LossTerm(function, resolved.getOrDefault("clip_low_threshold", 0.0),
                resolved.getOrDefault("clip_high_threshold", 0.0), resolved.getOrDefault("beta", 0.0));
    }

    double loss(double lp, double w, double a, double q) {
        return switch (function) {
            case CROSS_ENTROPY -> -lp * w;
            case IMPORTANCE_SAMPLING -> -Math.exp(lp - q) * a;
            case PPO -> {
                double r = Math.exp(lp - q);
                yield -Math.min(r * a, clip(r) * a);
            }
            // The clipped ratio is a constant weight (stop-gradient), so the term is linear in lp.
            case CISPO -> -clip(Math.exp(lp - q)) * lp * a;
            case DRO -> -(lp * a - 0.5 * beta * (lp - q) * (lp - q));
        };
    }

    /** {@code d loss / d lp}. */
    double gradient(double lp, double w, double a, double q) {
        return switch (function) {
            case CROSS_ENTROPY -> -w;
            case IMPORTANCE_SAMPLING -> -Math.exp(lp - q) * a;
            case PPO -> {
                double r = Math.exp(lp - q);
                // The min passes the gradient of the unclipped term unless the clipped one is strictly smaller.
                yield r * a <= clip(r) * a ? -r * a : 0;
            }
            case CISPO -> -clip(Math.exp(lp - q)) * a;
            case DRO -> -a + beta * (lp - q);
        };
    }

    /**
     * Whether the term is constant in {@code lp} for these inputs, so its derivative is zero at every {@code lp}: a
     * zero weight (cross_entropy), a zero advantage (the policy losses; dro only without its penalty).
     */
    boolean inert(double w, double a) {
        return switch (function) {
            case CROSS_ENTROPY -> w == 0;
            case IMPORTANCE_SAMPLING, PPO, CISPO -> a == 0;
            case DRO -> a == 0 && beta == 0;
        };
    }

    /**
     * Whether clipping changed this position's gradient: for ppo, the clipped term is strictly the smaller (so the
     * position gets no gradient); for cispo, the ratio was cut and the advantage is not zero. Never for the others.
     */
    boolean clipped(double lp, double a, double q) {
        double r = Math.exp(lp - q);
        return switch (function) {
            case PPO -> clip(r) * a < r * a;
            case CISPO -> a != 0 && clip(r) != r;
            case CROSS_ENTROPY, IMPORTANCE_SAMPLING, DRO -> false;
        };
    }

    boolean clips() {
        return function == LossFunction.PPO || function == LossFunction.CISPO;
    }

    private double clip(double r) {
        return Math.clamp(r, low, high);
    }
}
