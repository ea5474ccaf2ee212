package dev.crucible.domain.job;

import dev.crucible.domain.dataset.DatasetId;
import dev.crucible.kernel.reading.JsonMaps;
import dev.crucible.domain.trajectory.TrajectoryGroup;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** What a job trains on, as validated at creation; kept apart from the job record because it can be large. */
public sealed interface JobSpec permits JobSpec.Rl, JobSpec.Sft {

    /**
     * RL input: scored trajectory groups and the trainer's settings, resolved from the client's
     * {@code experimental_config} once, when the job was posted ({@link RlConfig#resolve}), and stored resolved so
     * the runner never reads the client's map again. {@code dataset} is the RL dataset the groups were read from,
     * if any: the job's checkpoint learned from it (lineage).
     */
    record Rl(List<TrajectoryGroup> trajectoryGroups, RlConfig config, Optional<DatasetId> dataset) implements JobSpec {
        public Rl {
            trajectoryGroups = List.copyOf(Objects.requireNonNull(trajectoryGroups, "trajectoryGroups"));
            Objects.requireNonNull(config, "config");
            Objects.requireNonNull(dataset, "dataset");
        }

        /** Groups sent with the request, from no dataset. */
        public Rl(List<TrajectoryGroup> trajectoryGroups, RlConfig config) {
            this(trajectoryGroups, config, Optional.empty());
        }

        /** Trajectories over all groups: what {@code training_started} reports before packing. */
        public int trajectoryCount() {
            return trajectoryGroups.stream().mapToInt(g -> g.trajectories().size()).sum();
        }
    }

    /**
     * SFT input: where the JSONL dataset is and the batch settings, resolved from the client's {@code config} once,
     * when the job was posted ({@link SftConfig#resolve}); the client's {@code experimental_config} is kept as sent
     * (no SFT setting reads it).
     */
    record Sft(String trainingDataUrl, SftConfig config, Map<String, Object> experimentalConfig)
            implements JobSpec {
        public Sft {
            Objects.requireNonNull(trainingDataUrl, "trainingDataUrl");
            Objects.requireNonNull(config, "config");
            experimentalConfig = JsonMaps.withoutNulls(experimentalConfig);
        }
    }
}
