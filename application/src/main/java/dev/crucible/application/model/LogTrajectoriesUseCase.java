package dev.crucible.application.model;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.domain.trajectory.TrajectoryGroup;
import java.util.List;
import java.util.Map;

/** Stores logged trajectories and writes their split-prefixed aggregates onto the latest checkpoint. */
public interface LogTrajectoriesUseCase {

    record Command(Caller caller, ModelId modelId, String split, List<TrajectoryGroup> groups) {
        public Command {
            groups = List.copyOf(groups);
        }
    }

    /** @return the metrics written onto the latest checkpoint */
    Outcome<Map<String, Double>> log(Command command);
}
