package dev.crucible.runtime.training.loss;

import dev.crucible.engine.spi.TokenObjective;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Builds a loss function's {@link TokenObjective} for one {@code forward_backward} call, and the call's metrics. The
 * inputs are checked by the caller (names, lengths, and the settings through {@link LossFunction#configure}); the
 * objective is a pure function of the learner's log-probabilities, computed in double precision.
 */
public final class Losses {

    private Losses() {
    }

    /**
     * @param function the loss
     * @param config   its settings by name, only those of {@link LossFunction#settings()}; a missing one takes its
     *                 default
     * @param data     one entry per datum, each input the loss reads as long as the datum's positions
     * @throws IllegalArgumentException when {@code config} is one {@link LossFunction#configure} refuses; the
     *                                  objective throws it when a datum's inputs and log-probabilities differ in
     *                                  number or length
     */
    public static TokenObjective objective(LossFunction function, Map<String, Double> config, List<LossInputs> data) {
        Objects.requireNonNull(config, "config");
        List<LossInputs> inputs = List.copyOf(data);
        return new Objective(LossTerm.of(function, config), inputs,
                inputs.stream().map(LossInputs::weights).toList(), inputs.stream().map(LossInputs::advantages).toList());
    }

    /**
     * The objective of one call: its positions' loss and derivatives, and which positions can have a derivative.
     *
     * @param weights    each datum's weights, read once (the inputs hand out copies)
     * @param advantages each datum's advantages, read once
     */
    private record Objective(LossTerm term, List<LossInputs> inputs, List<float[]> weights, List<float[]> advantages)
            implements TokenObjective {

        @Override
        public Evaluation evaluate(List<float[]> logprobs) {
            double loss = 0;
            List<float[]> gradients = new ArrayList<>(logprobs.size());
            for (Positions p : Positions.of(term, inputs, logprobs)) {
                float[] g = new float[p.size()];
                for (int i = 0; i < g.length; i++) {
                    loss += p.loss(i);
                    g[i] = (float) p.gradient(i);
                }
                gradients.add(g);
            }
            return new Evaluation(loss, gradients);
        }

        /** A datum's position counts unless its inputs make the term constant in the log-probability. */
        @Override
        public boolean graded(int sequence, int target) {
            return !term.inert(valueAt(weights.get(sequence), target), valueAt(advantages.get(sequence), target));
        }

        /** Tinker's outputs carry log-probabilities and the loss's metrics, no entropies. */
        @Override
        public boolean measuresEntropy() {
            return false;
        }

        /** An input at a position, 0 where the datum holds none (the caller checks the lengths the loss reads). */
        private static double valueAt(float[] values, int position) {
            return position < values.length ? values[position] : 0;
        }
    }

    /**
     * The call's metrics at the learner's log-probabilities the objective was evaluated at (a trainer's
     * {@code TrainingBatchResult.logprobs()}), every key {@code name:reduction} as the Tinker SDK merges chunks:
     * {@code loss:sum}, the objective's loss; for ppo and cispo also {@code clip_fraction:mean}, per datum the share of
     * its positions whose gradient the clipping changed ({@link LossTerm#clipped}), averaged over the datums (the SDK
     * weights each chunk's mean by its datums, so the merged value is the same average over the whole call).
     *
     * @throws IllegalArgumentException as {@link #objective} does
     */
    public static Map<String, Double> metrics(LossFunction function, Map<String, Double> config,
            List<LossInputs> data, List<float[]> logprobs) {
        LossTerm term = LossTerm.of(function, config);
        double loss = 0;
        double clipShares = 0;
        List<Positions> datums = Positions.of(term, List.copyOf(data), logprobs);
        for (Positions p : datums) {
            int clipped = 0;
            for (int i = 0; i < p.size(); i++) {
                loss += p.loss(i);
                clipped += p.clipped(i) ? 1 : 0;
            }
            clipShares += p.size() == 0 ? 0 : (double) clipped / p.size();
        }
        Map<String, Double> metrics = new LinkedHashMap<>();
        metrics.put("loss:sum", loss);
        if (term.clips()) {
            metrics.put("clip_fraction:mean", datums.isEmpty() ? 0 : clipShares / datums.size());
        }
        return Map.copyOf(metrics);
    }

    /** One datum's positions: the learner's log-probabilities beside the inputs the loss reads. */
    private record Positions(LossTerm term, float[] lp, float[] w, float[] a, float[] q) {

        static List<Positions> of(LossTerm term, List<LossInputs> inputs, List<float[]> logprobs) {
            if (logprobs.size() != inputs.size()) {
                throw new IllegalArgumentException("got log-probabilities of " + logprobs.size() + " datums for "
                        + inputs.size() + " datums of inputs");
            }
            List<Positions> all = new ArrayList<>(inputs.size());
            for (int d = 0; d < inputs.size(); d++) {
                LossInputs in = inputs.get(d);
                float[] lp = logprobs.get(d);
                all.add(new Positions(term, lp, read(term, "weights", in.weights(), lp.length, d),
                        read(term, "advantages", in.advantages(), lp.length, d),
                        read(term, "logprobs", in.samplerLogprobs(), lp.length, d)));
            }
            return all;
        }

        /** The input {@code name} when the loss reads it, checked against the datum's positions; else null. */
        private static float[] read(LossTerm term, String name, float[] values, int positions, int datum) {
            if (!term.function().inputs().contains(name)) {
                return null;
            }
            if (values.length != positions) {
                throw new IllegalArgumentException("data[" + datum + "]." + name + " must hold " + positions
                        + " values, one per position, got " + values.length);
            }
            return values;
        }

        int size() {
            return lp.length;
        }

        double loss(int i) {
            return term.loss(lp[i], w == null ? 0 : w[i], a == null ? 0 : a[i], q == null ? 0 : q[i]);
        }

        double gradient(int i) {
            return term.gradient(lp[i], w == null ? 0 : w[i], a == null ? 0 : a[i], q == null ? 0 : q[i]);
        }

        boolean clipped(int i) {
            return term.clipped(lp[i], a == null ? 0 : a[i], q == null ? 0 : q[i]);
        }
    }
}
