package dev.crucible.runtime.generation.sampling;

import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * Random sampling as vLLM's V1 sampler does it: divide by the temperature, then min_p, top_k, top_p (top_p over what
 * the others left, renormalised), then draw. Stateless.
 */
final class Truncation {

    private Truncation() {
    }

    /** Draws one token from {@code logits} (changed in place) by inverse CDF with one {@code nextDouble()}. */
    static int draw(double[] logits, SamplingParams params, RandomGenerator random) {
        for (int id = 0; id < logits.length; id++) {
            logits[id] /= params.temperature();
        }
        if (params.minP() > 0) {
            double[] probs = softmax(logits);
            double floor = params.minP() * Arrays.stream(probs).max().orElse(0);
            for (int id = 0; id < logits.length; id++) {
                if (probs[id] < floor) {
                    logits[id] = Double.NEGATIVE_INFINITY;
                }
            }
        }
        if (params.topK() > 0 && params.topK() < logits.length) {
            double[] sorted = logits.clone();
            Arrays.sort(sorted);
            double kth = sorted[sorted.length - params.topK()];
            // ties with the k-th score survive, as in vLLM's apply_top_k_only
            for (int id = 0; id < logits.length; id++) {
                if (logits[id] < kth) {
                    logits[id] = Double.NEGATIVE_INFINITY;
                }
            }
        }
        if (params.topP() < 1) {
            topP(logits, params.topP());
        }
        double[] probs = softmax(logits);
        double target = random.nextDouble();
        double cumulative = 0;
        int last = 0;
        for (int id = 0; id < probs.length; id++) {
            if (probs[id] > 0) {
                cumulative += probs[id];
                last = id;
                if (target < cumulative) {
                    return id;
                }
            }
        }
        return last;
    }

    /** Drops the least likely tokens whose ascending cumulative probability stays within {@code 1 - p}; keeps one. */
    private static void topP(double[] logits, double p) {
        double[] probs = softmax(logits);
        // a non-negative float's bits order like the float, so (bits << 32 | id) sorts by probability, then id
        long[] ascending = new long[logits.length];
        for (int id = 0; id < logits.length; id++) {
            ascending[id] = ((long) Float.floatToIntBits((float) probs[id]) << 32) | id;
        }
        Arrays.sort(ascending);
        double cumulative = 0;
        for (int i = 0; i < ascending.length - 1; i++) {
            int id = (int) ascending[i];
            cumulative += probs[id];
            if (cumulative <= 1 - p) {
                logits[id] = Double.NEGATIVE_INFINITY;
            }
        }
    }

    /** Softmax with the maximum subtracted; minus infinity gives 0. */
    static double[] softmax(double[] logits) {
        double max = Arrays.stream(logits).max().orElse(0);
        double[] probs = new double[logits.length];
        double sum = 0;
        for (int id = 0; id < logits.length; id++) {
            probs[id] = Math.exp(logits[id] - max);
            sum += probs[id];
        }
        for (int id = 0; id < probs.length; id++) {
            probs[id] /= sum;
        }
        return probs;
    }
}
