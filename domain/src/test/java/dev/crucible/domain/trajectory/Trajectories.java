package dev.crucible.domain.trajectory;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Fixtures: small trajectories and groups. */
public final class Trajectories {

    private Trajectories() {
    }

    public static History history() {
        return new History(List.of(
                HistoryItem.of(Map.of("role", "user", "content", "2+2?")),
                HistoryItem.of(Map.of("message", Map.of("role", "assistant", "content", "4")))), List.of());
    }

    public static Trajectory trajectory(double reward) {
        return trajectory(reward, Map.of());
    }

    public static Trajectory trajectory(double reward, Map<String, Double> metrics) {
        return new Trajectory(history(), List.of(), reward, metrics);
    }

    /** A group of trajectories with the given rewards and no exceptions. */
    public static TrajectoryGroup group(double... rewards) {
        return new TrajectoryGroup(Arrays.stream(rewards).mapToObj(Trajectories::trajectory).toList(), 0, Map.of());
    }
}
