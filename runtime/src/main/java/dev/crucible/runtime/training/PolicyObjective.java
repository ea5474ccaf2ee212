package dev.crucible.runtime.training;

import dev.crucible.engine.spi.TokenObjective;
import java.util.ArrayList;
import java.util.List;

/**
 * The policy loss of one optimiser step (one packed row), as ART's {@code loss.py} defines it, with its exact
 * gradient with respect to each trained token's new log-probability.
 *
 * <p>With {@code new} the log-probabilities under the adapter being trained, {@code old} the sampler's (taken equal
 * to {@code new}, without gradient, where unknown) and {@code delta = new - old}: the importance ratio {@code r} is
 * {@code exp(delta)} per token, {@code exp(mean delta)} per sequence, their mean ({@code average}) or geometric mean
 * ({@code geometric_average}); it is clamped from above by {@code max_negative_advantage_importance_sampling_weight}
 * and zeroed outside {@code (1 - epsilon, 1 + epsilon_high)} with {@code mask_prob_ratio}, both without gradient.
 * The advantage gains {@code kl_penalty_coef * (mean kl - kl)} with {@code kl = new - reference} and loses
 * {@code kimi_k2_tau * delta}, both without gradient. Per token, PPO is {@code -min(r A, clip(r) A)} and CISPO is
 * {@code -clip(r) A new} with the clipped ratio a constant weight. Each token's loss is multiplied by its weight (and
 * by the truncated importance-sampling factor when set), and the row's sum is divided by its trained tokens + 1e-6.
 *
 * <p>One instance serves one step; after {@link #evaluate} it also holds the row's mean KL to the reference and the
 * correlation of old and new probabilities, which ART logs.
 */
public final class PolicyObjective implements TokenObjective {

    private final List<RlSequence> row;
    private final PolicyLoss settings;
    private final List<float[]> reference;
    private final List<float[]> truncation;
    private final double tokens;
    private double meanKl = Double.NaN;
    private double probsCorrelation = Double.NaN;

    /**
     * @param reference  each sequence's reference log-probabilities when a KL penalty applies, else null
     * @param truncation each token's truncated importance-sampling factor when set, else null
     */
    public PolicyObjective(List<RlSequence> row, PolicyLoss settings, List<float[]> reference,
            List<float[]> truncation) {
        this.row = List.copyOf(row);
        this.settings = settings;
        this.reference = reference;
        this.truncation = truncation;
        this.tokens = row.stream().mapToInt(s -> s.sequence().targetCount()).sum();
    }

    @Override
    public Evaluation evaluate(List<float[]> logprobs) {
        double klSum = 0;
        if (reference != null) {
            for (int s = 0; s < row.size(); s++) {
                for (int t = 0; t < logprobs.get(s).length; t++) {
                    klSum += logprobs.get(s)[t] - reference.get(s)[t];
                }
            }
            meanKl = klSum / Math.max(1, tokens);
        }
        double loss = 0;
        List<float[]> gradients = new ArrayList<>(row.size());
        Correlation correlation = new Correlation();
        for (int s = 0; s < row.size(); s++) {
            loss += sequence(s, logprobs.get(s), gradients, correlation);
        }
        probsCorrelation = correlation.value();
        return new Evaluation(loss, gradients);
    }

    private double sequence(int s, float[] now, List<float[]> gradients, Correlation correlation) {
        RlSequence seq = row.get(s);
        int n = now.length;
        double[] delta = new double[n];
        double meanDelta = 0;
        for (int t = 0; t < n; t++) {
            float old = seq.logprobs()[t];
            delta[t] = Float.isNaN(old) ? 0 : now[t] - old;
            meanDelta += delta[t] / n;
            if (!Float.isNaN(old)) {
                correlation.add(Math.exp(old), Math.exp(now[t]));
            }
        }
        double sequenceRatio = Math.exp(meanDelta);
        double low = 1 - settings.epsilon();
        double high = 1 + settings.epsilonHigh();
        double[] grad = new double[n];
        double shared = 0;
        double loss = 0;
        for (int t = 0; t < n; t++) {
            double tokenRatio = Math.exp(delta[t]);
            double ratio = ratio(delta[t], meanDelta);
            boolean differentiable = true;
            Double cap = settings.maxNegativeAdvantageWeight();
            if (cap != null && ratio > cap) {
                ratio = cap;
                differentiable = false;
            }
            if (settings.maskProbRatio() && !(ratio > low && ratio < high)) {
                ratio = 0;
                differentiable = false;
            }
            double advantage = seq.advantage();
            if (reference != null) {
                advantage += settings.klPenaltyCoef() * (meanKl - (now[t] - reference.get(s)[t]));
            }
            if (settings.kimiK2Tau() != null) {
                advantage -= settings.kimiK2Tau() * delta[t];
            }
            double factor = seq.weight() * (truncation == null ? 1 : truncation.get(s)[t]) / (tokens + 1e-6);
            double clipped = Math.clamp(ratio, low, high);
            if (settings.ppo()) {
                double unclipped = ratio * advantage;
                double bounded = clipped * advantage;
                loss -= Math.min(unclipped, bounded) * factor;
                if (differentiable && unclipped <= bounded) {
                    double dRatio = -advantage * factor;
                    switch (settings.importanceSamplingLevel()) {
                        case "sequence" -> shared += dRatio * sequenceRatio / n;
                        case "average" -> {
                            grad[t] += dRatio * tokenRatio / 2;
                            shared += dRatio * sequenceRatio / (2.0 * n);
                        }
                        case "geometric_average" -> {
                            grad[t] += dRatio * ratio / 2;
                            shared += dRatio * ratio / (2.0 * n);
                        }
                        default -> grad[t] += dRatio * tokenRatio;
                    }
                }
            } else {
                loss -= clipped * advantage * now[t] * factor;
                grad[t] -= clipped * advantage * factor;
            }
        }
        float[] out = new float[n];
        for (int t = 0; t < n; t++) {
            out[t] = (float) (grad[t] + shared);
        }
        gradients.add(out);
        return loss;
    }

    /**
     * The loss as autograd sees it, written directly from its definition: {@code live} is where the gradient flows,
     * {@code detached} gives every stop-gradient quantity (the KL terms, the on-policy {@code old}, CISPO's clipped
     * ratio). Its derivative with respect to {@code live} at {@code live == detached} is what {@link #evaluate}
     * returns, which is how the tests check it; it does not record {@link #meanKl()}.
     */
    double surrogate(List<float[]> live, List<float[]> detached) {
        double klMean = 0;
        if (reference != null) {
            for (int s = 0; s < row.size(); s++) {
                for (int t = 0; t < detached.get(s).length; t++) {
                    klMean += (detached.get(s)[t] - reference.get(s)[t]) / Math.max(1, tokens);
                }
            }
        }
        double loss = 0;
        double low = 1 - settings.epsilon();
        double high = 1 + settings.epsilonHigh();
        for (int s = 0; s < row.size(); s++) {
            RlSequence seq = row.get(s);
            float[] x = live.get(s);
            float[] d = detached.get(s);
            int n = x.length;
            double[] old = new double[n];
            double meanLive = 0;
            double meanDetached = 0;
            for (int t = 0; t < n; t++) {
                old[t] = Float.isNaN(seq.logprobs()[t]) ? d[t] : seq.logprobs()[t];
                meanLive += (x[t] - old[t]) / n;
                meanDetached += (d[t] - old[t]) / n;
            }
            for (int t = 0; t < n; t++) {
                double ratio = ratio(x[t] - old[t], meanLive);
                double ratioDetached = ratio(d[t] - old[t], meanDetached);
                if (settings.maxNegativeAdvantageWeight() != null) {
                    ratio = Math.min(ratio, settings.maxNegativeAdvantageWeight());
                    ratioDetached = Math.min(ratioDetached, settings.maxNegativeAdvantageWeight());
                }
                if (settings.maskProbRatio()) {
                    ratio = ratio > low && ratio < high ? ratio : 0;
                    ratioDetached = ratioDetached > low && ratioDetached < high ? ratioDetached : 0;
                }
                double advantage = seq.advantage();
                if (reference != null) {
                    advantage += settings.klPenaltyCoef() * (klMean - (d[t] - reference.get(s)[t]));
                }
                if (settings.kimiK2Tau() != null) {
                    advantage -= settings.kimiK2Tau() * (d[t] - old[t]);
                }
                double factor = seq.weight() * (truncation == null ? 1 : truncation.get(s)[t]) / (tokens + 1e-6);
                loss += factor * (settings.ppo()
                        ? -Math.min(ratio * advantage, Math.clamp(ratio, low, high) * advantage)
                        : -Math.clamp(ratioDetached, low, high) * advantage * x[t]);
            }
        }
        return loss;
    }

    private double ratio(double delta, double meanDelta) {
        return switch (settings.importanceSamplingLevel()) {
            case "sequence" -> Math.exp(meanDelta);
            case "average" -> (Math.exp(delta) + Math.exp(meanDelta)) / 2;
            case "geometric_average" -> Math.exp((delta + meanDelta) / 2);
            default -> Math.exp(delta);
        };
    }

    /** The row's mean of {@code new - reference} at the last evaluation; NaN without a KL penalty. */
    public double meanKl() {
        return meanKl;
    }

    /** Pearson correlation of old and new token probabilities at the last evaluation; NaN when undefined. */
    public double probsCorrelation() {
        return probsCorrelation;
    }

    /** Running sums for a Pearson correlation. */
    private static final class Correlation {
        private double n;
        private double sx;
        private double sy;
        private double sxx;
        private double syy;
        private double sxy;

        void add(double x, double y) {
            n++;
            sx += x;
            sy += y;
            sxx += x * x;
            syy += y * y;
            sxy += x * y;
        }

        double value() {
            double cov = sxy - sx * sy / n;
            double vx = sxx - sx * sx / n;
            double vy = syy - sy * sy / n;
            return n < 2 || vx <= 0 || vy <= 0 ? Double.NaN : cov / Math.sqrt(vx * vy);
        }
    }
}
