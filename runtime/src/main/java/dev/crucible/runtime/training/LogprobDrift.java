package dev.crucible.runtime.training;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * How far the trainer's log-probabilities of one step's tokens are from the sampler's, the numbers an RL step's
 * importance ratio rests on. With {@code d = trainer - sampler} per token that carries a sampler log-probability:
 * the mean and the largest {@code |d|}, and Schulman's k3 estimator {@code mean(exp(d) - d - 1)} of
 * {@code KL(sampler || trainer)} (unbiased, never negative, since the tokens were drawn from the sampler). Tokens
 * without a sampler log-probability (NaN: a plain assistant message trained with
 * {@code allow_training_without_logprobs}) are left out; a step with none has no drift.
 *
 * <p>The metric names are written here once: bare in a job's {@code gradient_step} event ({@link #eventMetrics}), with
 * the Tinker SDK's {@code name:reduction} suffix in a {@code forward_backward} output ({@link #tinkerMetrics}).
 *
 * @param tokens  the tokens compared, at least 1
 * @param meanAbs the mean of {@code |trainer - sampler|}, in nats
 * @param maxAbs  the largest {@code |trainer - sampler|}, in nats
 * @param klK3    the k3 estimate of {@code KL(sampler || trainer)}, in nats
 */
public record LogprobDrift(long tokens, double meanAbs, double maxAbs, double klK3) {

    private static final String MEAN = "sampler_logprob_diff_mean";
    private static final String MAX = "sampler_logprob_diff_max";
    private static final String KL = "sampler_kl_k3";
    private static final String TOKENS = "sampler_logprob_tokens";

    public LogprobDrift {
        if (tokens < 1) {
            throw new IllegalArgumentException("tokens must be >= 1, got " + tokens);
        }
    }

    /**
     * @param trainer one array per sequence, the trainer's log-probability of each target
     * @param sampler the same sequences' sampler log-probabilities, NaN where unknown, shaped as {@code trainer}
     * @return the drift over the targets with a sampler log-probability; empty when there are none
     * @throws IllegalArgumentException when the two are shaped differently
     */
    public static Optional<LogprobDrift> measure(List<float[]> trainer, List<float[]> sampler) {
        if (trainer.size() != sampler.size()) {
            throw new IllegalArgumentException("got trainer log-probabilities of " + trainer.size()
                    + " sequences and sampler log-probabilities of " + sampler.size());
        }
        long n = 0;
        double absSum = 0;
        double max = 0;
        double klSum = 0;
        for (int s = 0; s < trainer.size(); s++) {
            float[] now = trainer.get(s);
            float[] old = sampler.get(s);
            if (now.length != old.length) {
                throw new IllegalArgumentException("sequence " + s + " has " + now.length
                        + " trainer log-probabilities and " + old.length + " sampler log-probabilities");
            }
            for (int t = 0; t < now.length; t++) {
                if (Float.isNaN(old[t])) {
                    continue;
                }
                double d = (double) now[t] - old[t];
                n++;
                absSum += Math.abs(d);
                max = Math.max(max, Math.abs(d));
                // exp(d) - 1 - d, written with expm1 so that a tiny d keeps its digits
                klSum += Math.expm1(d) - d;
            }
        }
        return n == 0 ? Optional.empty() : Optional.of(new LogprobDrift(n, absSum / n, max, klSum / n));
    }

    /** Whether the mean absolute difference is above {@code limit} (the setting that fails a step). */
    public boolean exceeds(double limit) {
        return meanAbs > limit;
    }

    /** The drift as a job's {@code gradient_step} event names it. */
    public Map<String, Number> eventMetrics() {
        Map<String, Number> out = new LinkedHashMap<>();
        out.put(MEAN, meanAbs);
        out.put(MAX, maxAbs);
        out.put(KL, klK3);
        out.put(TOKENS, tokens);
        return out;
    }

    /** The drift as a {@code forward_backward} output's metrics, keyed {@code name:reduction}. */
    public Map<String, Double> tinkerMetrics() {
        Map<String, Double> out = new LinkedHashMap<>();
        out.put(MEAN + ":mean", meanAbs);
        out.put(MAX + ":max", maxAbs);
        out.put(KL + ":mean", klK3);
        out.put(TOKENS + ":sum", (double) tokens);
        return out;
    }

    /** A sentence for a failure: the measured drift against the limit, and the setting that holds the limit. */
    public String describe(double limit, String setting) {
        return String.format(Locale.ROOT, "the trainer's log-probabilities drifted from the sampler's: "
                + "mean |trainer - sampler| = %.6g nats over %d tokens (largest %.6g, k3 KL(sampler || trainer) "
                + "= %.6g) is above %s = %s", meanAbs, tokens, maxAbs, klK3, setting, limit);
    }
}
