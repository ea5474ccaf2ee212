package dev.crucible.application.fakes;

import dev.crucible.application.model.TrajectoryLogStore;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.trajectory.TrajectoryGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Records each logged batch. */
public final class InMemoryTrajectoryLogStore implements TrajectoryLogStore {

    /** One call of {@link #log}. */
    public record Logged(ModelId model, String split, List<TrajectoryGroup> groups, Map<String, Double> metrics) {
    }

    private final List<Logged> logged = new ArrayList<>();

    @Override
    public synchronized void log(ModelId model, String split, List<TrajectoryGroup> groups, Map<String, Double> metrics) {
        logged.add(new Logged(model, split, List.copyOf(groups), Map.copyOf(metrics)));
    }

    public synchronized List<Logged> logged() {
        return List.copyOf(logged);
    }
}
