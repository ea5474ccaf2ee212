package dev.crucible.application.job;

import dev.crucible.domain.dataset.DatasetId;
import dev.crucible.domain.job.RlConfig;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.domain.trajectory.TrajectoryGroup;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Queues an RL job over scored trajectory groups; answers at once with the queued job. */
public interface CreateRlJobUseCase {

    /**
     * @param config  the trainer's settings, resolved from the client's {@code experimental_config} at the edge
     * @param dataset the caller's RL dataset the groups were read from, if any (its checkpoint's lineage)
     */
    record Command(Caller caller, ModelId modelId, List<TrajectoryGroup> trajectoryGroups, RlConfig config,
            Optional<DatasetId> dataset) {
        public Command {
            trajectoryGroups = List.copyOf(trajectoryGroups);
            Objects.requireNonNull(config, "config");
            Objects.requireNonNull(dataset, "dataset");
        }

        /** Groups sent with the request. */
        public Command(Caller caller, ModelId modelId, List<TrajectoryGroup> trajectoryGroups, RlConfig config) {
            this(caller, modelId, trajectoryGroups, config, Optional.empty());
        }
    }

    Outcome<TrainingJob> create(Command command);
}
