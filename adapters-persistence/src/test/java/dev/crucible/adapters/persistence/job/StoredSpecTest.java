package dev.crucible.adapters.persistence.job;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.domain.job.JobSpec;
import dev.crucible.domain.job.RlConfig;
import dev.crucible.domain.job.SftConfig;
import io.micronaut.core.type.Argument;
import io.micronaut.serde.ObjectMapper;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StoredSpecTest {

    private final ObjectMapper mapper = ObjectMapper.getDefault();

    private static RlConfig rl(Map<String, Object> experimental) {
        return value(RlConfig.resolve(experimental));
    }

    private static SftConfig sft(Map<String, Object> config) {
        return value(SftConfig.resolve(config));
    }

    private JobSpec roundTrip(JobSpec spec) throws IOException {
        return mapper.readValue(mapper.writeValueAsString(StoredSpec.of(spec)), StoredSpec.class).spec();
    }

    private Map<String, Object> stored(JobSpec spec) throws IOException {
        return mapper.readValue(mapper.writeValueAsString(StoredSpec.of(spec)),
                Argument.mapOf(String.class, Object.class));
    }

    @Test
    void storedRlSettingsReadBackAsTheyWereResolved() throws IOException {
        // PPO, and every setting that may be null set.
        Map<String, Object> client = Map.of("ppo", true, "importance_sampling_level", "sequence",
                "max_negative_advantage_importance_sampling_weight", 2.0, "kimi_k2_tau", 0.1, "kl_penalty_coef", 0.05,
                "kl_penalty_step_lag", 2, "truncated_importance_sampling", 3.0, "scale_rewards", false);
        for (RlConfig config : List.of(RlConfig.defaults(), rl(client), rl(Map.of("kl_penalty_coef", 0.1,
                "kl_penalty_reference_step", 0)))) {
            JobSpec spec = new JobSpec.Rl(List.of(), config);
            assertEquals(spec, roundTrip(spec));
        }
    }

    @Test
    void storedSftSettingsReadBackAsTheyWereResolved() throws IOException {
        for (SftConfig config : List.of(SftConfig.defaults(), sft(Map.of("batch_size", 4, "learning_rate",
                List.of(1e-4, 5e-5), "assistant_turns", "last")))) {
            JobSpec spec = new JobSpec.Sft("https://example.com/d.jsonl", config, Map.of("seed", 7));
            assertEquals(spec, roundTrip(spec));
        }
    }

    @Test
    void theSpecKeepsItsTopLevelNamesAndHoldsOnlyItsTypesNonEmptyParts() throws IOException {
        Map<String, Object> rl = stored(new JobSpec.Rl(List.of(), RlConfig.defaults()));
        assertEquals(Set.of("type", "rl_config"), rl.keySet());
        assertEquals("RL", rl.get("type"));
        Map<String, Object> sft = stored(new JobSpec.Sft("u", SftConfig.defaults(), Map.of("seed", 7)));
        assertEquals(Set.of("type", "training_data_url", "sft_config", "experimental_config"), sft.keySet());
        assertEquals(Map.of("seed", 7), sft.get("experimental_config"));
    }

    @Test
    void anEmptyRlJobAndAnSftJobWithoutExperimentalConfigReadBack() throws IOException {
        for (JobSpec spec : List.of(new JobSpec.Rl(List.of(), RlConfig.defaults()),
                new JobSpec.Sft("u", SftConfig.defaults(), Map.of()))) {
            assertEquals(spec, roundTrip(spec));
        }
    }
}
