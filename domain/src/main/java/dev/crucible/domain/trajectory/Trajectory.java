package dev.crucible.domain.trajectory;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One scored rollout.
 *
 * @param history the main conversation
 * @param additionalHistories extra conversations trained with the same reward
 * @param reward the score
 * @param metrics numeric metrics (booleans stored as 1 or 0)
 */
public record Trajectory(History history, List<History> additionalHistories, double reward, Map<String, Double> metrics) {

    public Trajectory {
        Objects.requireNonNull(history, "history");
        additionalHistories = List.copyOf(Objects.requireNonNull(additionalHistories, "additionalHistories"));
        metrics = Map.copyOf(Objects.requireNonNull(metrics, "metrics"));
        if (!Double.isFinite(reward)) {
            throw new IllegalArgumentException("reward must be finite, got " + reward);
        }
    }
}
