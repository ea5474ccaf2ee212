package dev.crucible.runtime.training.loss;

import java.util.List;

/**
 * The losses of the Tinker reference (§7), written for the tests straight from their formulas, NumPy-style over whole
 * datums, in double precision and apart from the production code: {@code live} is where the gradient flows,
 * {@code detached} gives each stop-gradient quantity (CISPO's clipped ratio); at {@code live == detached} the loss is
 * the production loss and its derivative in {@code live} the production gradient.
 */
final class ReferenceLoss {

    private ReferenceLoss() {
    }

    /** One datum's inputs, as doubles. */
    record Datum(double[] weights, double[] advantages, double[] sampler) {
    }

    static double loss(String name, double low, double high, double beta, List<double[]> live, List<double[]> detached,
            List<Datum> data) {
        double total = 0;
        for (int d = 0; d < data.size(); d++) {
            total += datum(name, low, high, beta, live.get(d), detached.get(d), data.get(d));
        }
        return total;
    }

    private static double datum(String name, double low, double high, double beta, double[] x, double[] stop,
            Datum datum) {
        double[] w = datum.weights();
        double[] adv = datum.advantages();
        double[] q = datum.sampler();
        double sum = 0;
        for (int i = 0; i < x.length; i++) {
            switch (name) {
                case "cross_entropy" -> sum += -x[i] * w[i];
                case "importance_sampling" -> sum += -(Math.exp(x[i] - q[i]) * adv[i]);
                case "ppo" -> {
                    double ratio = Math.exp(x[i] - q[i]);
                    double clipped = Math.max(low, Math.min(high, ratio));
                    sum += -Math.min(ratio * adv[i], clipped * adv[i]);
                }
                case "cispo" -> {
                    double weight = Math.max(low, Math.min(high, Math.exp(stop[i] - q[i])));
                    sum += -(weight * x[i] * adv[i]);
                }
                case "dro" -> sum += -(x[i] * adv[i] - 0.5 * beta * Math.pow(x[i] - q[i], 2));
                default -> throw new IllegalArgumentException(name);
            }
        }
        return sum;
    }

    /** Central finite difference of {@link #loss} in {@code live[d][i]}, all else (and {@code detached}) fixed. */
    static double derivative(String name, double low, double high, double beta, List<double[]> at, List<Datum> data,
            int d, int i, double h) {
        List<double[]> plus = at.stream().map(double[]::clone).toList();
        List<double[]> minus = at.stream().map(double[]::clone).toList();
        plus.get(d)[i] += h;
        minus.get(d)[i] -= h;
        return (loss(name, low, high, beta, plus, at, data) - loss(name, low, high, beta, minus, at, data)) / (2 * h);
    }
}
