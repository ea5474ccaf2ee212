package dev.crucible.domain.trajectory;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Rollouts of one scenario, compared with each other for group-relative advantages.
 *
 * @param trajectories the scored rollouts
 * @param exceptionCount rollouts that raised instead of producing a trajectory
 * @param metrics group-level numeric metrics
 */
public record TrajectoryGroup(List<Trajectory> trajectories, int exceptionCount, Map<String, Double> metrics) {

    public TrajectoryGroup {
        trajectories = List.copyOf(Objects.requireNonNull(trajectories, "trajectories"));
        metrics = Map.copyOf(Objects.requireNonNull(metrics, "metrics"));
        if (exceptionCount < 0) {
            throw new IllegalArgumentException("exceptionCount must be >= 0, got " + exceptionCount);
        }
    }

    /** Population standard deviation of the rewards (divides by n); 0 for fewer than two trajectories. */
    public double rewardStdDev() {
        int n = trajectories.size();
        if (n < 2) {
            return 0.0;
        }
        double mean = trajectories.stream().mapToDouble(Trajectory::reward).sum() / n;
        double squares = trajectories.stream().mapToDouble(t -> (t.reward() - mean) * (t.reward() - mean)).sum();
        return Math.sqrt(squares / n);
    }
}
