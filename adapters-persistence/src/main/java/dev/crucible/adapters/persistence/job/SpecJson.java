package dev.crucible.adapters.persistence.job;

import dev.crucible.adapters.persistence.trajectory.TrajectoryJson;
import dev.crucible.domain.job.JobSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A job's input as a JSON-shaped map for {@code training_job_specs.spec}, and back. Settings are stored resolved
 * ({@code rl_config}, {@code sft_config}); a job stored before that holds the client's raw {@code experimental_config}
 * (RL) or {@code config} (SFT), which is resolved on reading as the runner then did.
 */
final class SpecJson {

    private SpecJson() {
    }

    static Map<String, Object> write(JobSpec spec) {
        Map<String, Object> out = new LinkedHashMap<>();
        switch (spec) {
            case JobSpec.Rl rl -> {
                out.put("type", "RL");
                out.put("trajectory_groups", TrajectoryJson.write(rl.trajectoryGroups()));
                out.put("rl_config", ConfigJson.write(rl.config()));
            }
            case JobSpec.Sft sft -> {
                out.put("type", "SFT");
                out.put("training_data_url", sft.trainingDataUrl());
                out.put("sft_config", ConfigJson.write(sft.config()));
                out.put("experimental_config", sft.experimentalConfig());
            }
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    static JobSpec read(Map<String, Object> json) {
        Map<String, Object> experimental = (Map<String, Object>) json.get("experimental_config");
        return switch ((String) json.get("type")) {
            case "RL" -> new JobSpec.Rl(TrajectoryJson.read((List<Object>) json.get("trajectory_groups")),
                    ConfigJson.rl((Map<String, Object>) (json.containsKey("rl_config") ? json.get("rl_config")
                            : experimental)));
            case "SFT" -> new JobSpec.Sft((String) json.get("training_data_url"),
                    ConfigJson.sft((Map<String, Object>) (json.containsKey("sft_config") ? json.get("sft_config")
                            : json.get("config"))), experimental == null ? Map.of() : experimental);
            default -> throw new IllegalStateException("unknown job spec type in database: " + json.get("type"));
        };
    }
}
