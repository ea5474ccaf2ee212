package dev.crucible.domain.job;

import dev.crucible.domain.reading.JsonMaps;
import dev.crucible.domain.refusal.Outcome;
import dev.crucible.domain.trajectory.TrajectoryGroup;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** What a job trains on, as validated at creation; kept apart from the job record because it can be large. */
public sealed interface JobSpec permits JobSpec.Rl, JobSpec.Sft {

    /**
     * RL input: scored trajectory groups and the client's experimental config (resolved by {@link RlConfig}).
     */
    record Rl(List<TrajectoryGroup> trajectoryGroups, Map<String, Object> experimentalConfig) implements JobSpec {
        public Rl {
            trajectoryGroups = List.copyOf(Objects.requireNonNull(trajectoryGroups, "trajectoryGroups"));
            experimentalConfig = JsonMaps.withoutNulls(experimentalConfig);
        }

        public RlConfig config() {
            return switch (RlConfig.resolve(experimentalConfig)) {
                case Outcome.Done<RlConfig> done -> done.value();
                case Outcome.Refused<RlConfig> refused ->
                        throw new IllegalStateException("stored RL config no longer valid: " + refused.refusal().message());
            };
        }

        /** Trajectories over all groups: what {@code training_started} reports before packing. */
        public int trajectoryCount() {
            return trajectoryGroups.stream().mapToInt(g -> g.trajectories().size()).sum();
        }
    }

    /** SFT input: where the JSONL dataset is and the batch settings (raw, resolved by {@link SftConfig}). */
    record Sft(String trainingDataUrl, Map<String, Object> config, Map<String, Object> experimentalConfig)
            implements JobSpec {
        public Sft {
            Objects.requireNonNull(trainingDataUrl, "trainingDataUrl");
            config = JsonMaps.withoutNulls(config);
            experimentalConfig = JsonMaps.withoutNulls(experimentalConfig);
        }
    }
}
