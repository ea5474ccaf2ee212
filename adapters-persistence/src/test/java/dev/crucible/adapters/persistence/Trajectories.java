package dev.crucible.adapters.persistence;

import dev.crucible.domain.trajectory.History;
import dev.crucible.domain.trajectory.HistoryItem;
import dev.crucible.domain.trajectory.Trajectory;
import dev.crucible.domain.trajectory.TrajectoryGroup;
import java.util.List;
import java.util.Map;

/** A small scored trajectory group, as an RL job or a trajectory log carries it. */
public final class Trajectories {

    private Trajectories() {
    }

    public static List<TrajectoryGroup> sample() {
        History history = new History(List.of(new HistoryItem.Message(Map.of("role", "user", "content", "2+2? é")),
                new HistoryItem.Message(Map.of("role", "assistant", "content", "4 \ud83d\ude00"))),
                List.of(Map.of("type", "function", "function", Map.of("name", "add"))));
        Trajectory trajectory = new Trajectory(history, List.of(), 1.5, Map.of("correct", 1.0));
        return List.of(new TrajectoryGroup(List.of(trajectory, new Trajectory(history, List.of(history), -0.5,
                Map.of())), 1, Map.of("mean", 0.5)));
    }
}
