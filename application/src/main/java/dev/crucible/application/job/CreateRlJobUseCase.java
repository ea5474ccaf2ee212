package dev.crucible.application.job;

import dev.crucible.domain.job.RlConfig;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.domain.trajectory.TrajectoryGroup;
import java.util.List;
import java.util.Objects;

/** Queues an RL job over scored trajectory groups; answers at once with the queued job. */
public interface CreateRlJobUseCase {

    /** @param config the trainer's settings, resolved from the client's {@code experimental_config} at the edge */
    record Command(Caller caller, ModelId modelId, List<TrajectoryGroup> trajectoryGroups, RlConfig config) {
        public Command {
            trajectoryGroups = List.copyOf(trajectoryGroups);
            Objects.requireNonNull(config, "config");
        }
    }

    Outcome<TrainingJob> create(Command command);
}
