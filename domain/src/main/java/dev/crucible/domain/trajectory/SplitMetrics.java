package dev.crucible.domain.trajectory;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The aggregates ART expects per split ({@code train}, {@code val}, ...), prefixed {@code <split>/}: mean
 * {@code reward}, {@code exception_rate}, {@code reward_std_dev} (mean of per-group population std over groups
 * of more than one trajectory) and the mean of each trajectory metric.
 */
public final class SplitMetrics {

    private static final Pattern SPLIT = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

    private SplitMetrics() {
    }

    /** Returns the problem with {@code split} as a metric prefix, or null when it is valid. */
    public static String splitProblem(String split) {
        if (split == null || !SPLIT.matcher(split).matches()) {
            return "split must be 1 to 64 letters, digits, '_', '.' or '-', got '" + split + "'";
        }
        return null;
    }

    /** Aggregates {@code groups} into split-prefixed metrics; empty when there is nothing to aggregate. */
    public static Map<String, Double> aggregate(String split, List<TrajectoryGroup> groups) {
        Objects.requireNonNull(groups, "groups");
        if (splitProblem(split) != null) {
            throw new IllegalArgumentException(splitProblem(split));
        }
        Map<String, Double> out = new TreeMap<>();
        int trajectories = 0;
        int exceptions = 0;
        double rewardSum = 0;
        double stdSum = 0;
        int stdGroups = 0;
        Map<String, double[]> metricSums = new TreeMap<>();
        for (TrajectoryGroup group : groups) {
            exceptions += group.exceptionCount();
            for (Trajectory t : group.trajectories()) {
                trajectories++;
                rewardSum += t.reward();
                t.metrics().forEach((k, v) -> {
                    double[] acc = metricSums.computeIfAbsent(k, x -> new double[2]);
                    acc[0] += v;
                    acc[1] += 1;
                });
            }
            if (group.trajectories().size() > 1) {
                stdSum += group.rewardStdDev();
                stdGroups++;
            }
        }
        String prefix = split + "/";
        metricSums.forEach((k, acc) -> out.put(prefix + k, acc[0] / acc[1]));
        if (trajectories > 0) {
            out.put(prefix + "reward", rewardSum / trajectories);
        }
        if (trajectories + exceptions > 0) {
            out.put(prefix + "exception_rate", (double) exceptions / (trajectories + exceptions));
        }
        if (stdGroups > 0) {
            out.put(prefix + "reward_std_dev", stdSum / stdGroups);
        }
        return out;
    }
}
