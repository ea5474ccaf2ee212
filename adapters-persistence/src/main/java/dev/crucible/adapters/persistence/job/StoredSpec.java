package dev.crucible.adapters.persistence.job;

import dev.crucible.adapters.persistence.trajectory.TrajectoryJson;
import dev.crucible.domain.dataset.DatasetId;
import dev.crucible.domain.job.JobSpec;
import dev.crucible.domain.job.RlConfig;
import dev.crucible.domain.job.SftConfig;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.micronaut.serde.config.naming.SnakeCaseStrategy;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A job's input as {@code training_job_specs.spec} holds it: its type, the RL trajectory groups ({@link TrajectoryJson})
 * or the SFT dataset and the client's {@code experimental_config}, and the settings resolved when the job was posted,
 * written as the records they are (their component names are the JSON names, {@link JdbcJobStore} imports them for
 * serde), so that no wire name is repeated here.
 */
@Serdeable(naming = SnakeCaseStrategy.class)
record StoredSpec(String type, @Nullable List<Object> trajectoryGroups, @Nullable RlConfig rlConfig,
        @Nullable String trainingDataUrl, @Nullable SftConfig sftConfig,
        @Nullable Map<String, Object> experimentalConfig, @Nullable String datasetId) {

    static StoredSpec of(JobSpec spec) {
        return switch (spec) {
            case JobSpec.Rl rl -> new StoredSpec("RL", List.copyOf(TrajectoryJson.write(rl.trajectoryGroups())),
                    rl.config(), null, null, null, rl.dataset().map(DatasetId::toString).orElse(null));
            case JobSpec.Sft sft -> new StoredSpec("SFT", null, null, sft.trainingDataUrl(), sft.config(),
                    sft.experimentalConfig(), null);
        };
    }

    JobSpec spec() {
        return switch (type) {
            case "RL" -> new JobSpec.Rl(TrajectoryJson.read(trajectoryGroups == null ? List.of() : trajectoryGroups),
                    rlConfig, Optional.ofNullable(datasetId).flatMap(DatasetId::parse));
            case "SFT" -> new JobSpec.Sft(trainingDataUrl, sftConfig,
                    experimentalConfig == null ? Map.of() : experimentalConfig);
            default -> throw new IllegalStateException("unknown job spec type in database: " + type);
        };
    }
}
