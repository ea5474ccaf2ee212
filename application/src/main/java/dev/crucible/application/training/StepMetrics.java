package dev.crucible.application.training;

import dev.crucible.engine.spi.TrainingBatchResult;
import dev.crucible.engine.spi.TrainingSequence;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Each optimiser step's metrics (the {@code gradient_step} event's data) and their summary for the checkpoint, kept
 * apart from the RL and SFT loops so that both report the same names the same way. Not thread-safe: one per job.
 */
final class StepMetrics {

    private int count;
    private double lossSum;
    private double normSum;
    private long trainedTokens;

    /** Records one optimiser step and returns its event data. */
    Map<String, Number> record(double loss, double norm, double lr, TrainingBatchResult result,
            List<TrainingSequence> batch, long nanos) {
        long tokens = batch.stream().mapToLong(TrainingSequence::length).sum();
        long trained = batch.stream().mapToLong(TrainingSequence::targetCount).sum();
        double entropySum = 0;
        long entropyCount = 0;
        for (float[] e : result.entropies()) {
            for (float v : e) {
                entropySum += v;
                entropyCount++;
            }
        }
        double seconds = Math.max(1e-9, nanos / 1e9);
        count++;
        lossSum += loss;
        normSum += norm;
        trainedTokens += trained;
        Map<String, Number> metrics = new LinkedHashMap<>();
        metrics.put("gradient_step", count);
        metrics.put("loss", loss);
        if (Double.isFinite(norm)) {
            metrics.put("grad_norm", norm);
        } else {
            metrics.put("skipped_non_finite_gradient", 1);
        }
        metrics.put("learning_rate", lr);
        metrics.put("entropy", entropyCount == 0 ? 0.0 : entropySum / entropyCount);
        metrics.put("num_trainable_tokens", trained);
        metrics.put("num_tokens", tokens);
        metrics.put("tokens_per_second", tokens / seconds);
        metrics.put("trainable_tokens_per_second", trained / seconds);
        return finite(metrics);
    }

    /**
     * Leaves out what is not a finite number: event data is JSON, and ART's client turns every value into a
     * float, so NaN or infinity would break the client (a skipped update is flagged instead).
     */
    static Map<String, Number> finite(Map<String, Number> metrics) {
        metrics.values().removeIf(v -> !Double.isFinite(v.doubleValue()));
        return metrics;
    }

    /** The checkpoint's summary of the steps recorded so far. */
    Map<String, Double> summary() {
        Map<String, Double> out = new TreeMap<>();
        out.put("data/step_num_gradient_steps", (double) count);
        out.put("data/step_trainer_tokens", (double) trainedTokens);
        if (count > 0) {
            out.put("loss/train", lossSum / count);
            out.put("loss/grad_norm", normSum / count);
        }
        return out;
    }
}
