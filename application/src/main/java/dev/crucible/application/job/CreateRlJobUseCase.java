package dev.crucible.application.job;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.domain.trajectory.TrajectoryGroup;
import java.util.List;
import java.util.Map;

/** Queues an RL job over scored trajectory groups; answers at once with the queued job. */
public interface CreateRlJobUseCase {

    /** @param experimentalConfig the client's config; null values and unknown keys mean defaults */
    record Command(Caller caller, ModelId modelId, List<TrajectoryGroup> trajectoryGroups,
            Map<String, Object> experimentalConfig) {
        public Command {
            trajectoryGroups = List.copyOf(trajectoryGroups);
        }
    }

    Outcome<TrainingJob> create(Command command);
}
