package dev.crucible.adapters.persistence.job;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.crucible.domain.job.JobSpec;
import dev.crucible.domain.job.RlConfig;
import dev.crucible.domain.job.SftConfig;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SpecJsonTest {

    private static RlConfig rl(Map<String, Object> experimental) {
        return value(RlConfig.resolve(experimental));
    }

    private static SftConfig sft(Map<String, Object> config) {
        return value(SftConfig.resolve(config));
    }

    @Test
    void anRlJobStoresItsSettingsResolvedWithEveryDefault() {
        Map<String, Object> stored = SpecJson.write(new JobSpec.Rl(List.of(), RlConfig.defaults()));
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("learning_rate", 5e-6);
        expected.put("loss_fn", "cispo");
        expected.put("epsilon", 1.0);
        expected.put("epsilon_high", 4.0);
        expected.put("advantage_balance", 0.0);
        expected.put("importance_sampling_level", "token");
        expected.put("normalize_advantages", true);
        expected.put("mask_prob_ratio", false);
        expected.put("kl_penalty_coef", 0.0);
        expected.put("allow_training_without_logprobs", false);
        expected.put("precalculate_logprobs", false);
        expected.put("num_trajectories_learning_rate_multiplier_power", 0.0);
        assertEquals(expected, stored.get("rl_config"));
        assertEquals(null, stored.get("experimental_config"));
    }

    @Test
    void storedRlSettingsReadBackAsTheyWereResolved() {
        Map<String, Object> client = new LinkedHashMap<>();
        client.put("learning_rate", 1e-5);
        client.put("ppo", true);
        client.put("epsilon", 0.3);
        client.put("advantage_balance", -0.5);
        client.put("importance_sampling_level", "sequence");
        client.put("scale_rewards", false);
        client.put("max_negative_advantage_importance_sampling_weight", 2.0);
        client.put("mask_prob_ratio", true);
        client.put("kimi_k2_tau", 0.1);
        client.put("kl_penalty_coef", 0.05);
        client.put("kl_penalty_step_lag", 2);
        client.put("allow_training_without_logprobs", true);
        client.put("precalculate_logprobs", true);
        client.put("truncated_importance_sampling", 3.0);
        client.put("num_trajectories_learning_rate_multiplier_power", 0.5);
        for (RlConfig config : List.of(RlConfig.defaults(), rl(client), rl(Map.of("kl_penalty_coef", 0.1,
                "kl_penalty_reference_step", 0)))) {
            JobSpec spec = new JobSpec.Rl(List.of(), config);
            assertEquals(spec, SpecJson.read(SpecJson.write(spec)));
        }
    }

    @Test
    void anRlJobStoredBeforeSettingsWereResolvedResolvesItsClientConfigOnReading() {
        JobSpec read = SpecJson.read(Map.of("type", "RL", "trajectory_groups", List.of(),
                "experimental_config", Map.of("ppo", true)));
        assertEquals(new JobSpec.Rl(List.of(), rl(Map.of("ppo", true))), read);
    }

    @Test
    void aStoredRlConfigThatNoLongerResolvesIsABug() {
        Map<String, Object> stored = Map.of("type", "RL", "trajectory_groups", List.of(),
                "experimental_config", Map.of("learning_rate", "x"));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> SpecJson.read(stored));
        assertEquals("stored RL config no longer valid: experimental_config.learning_rate must be a number, got a string",
                e.getMessage());
    }

    @Test
    void storedSftSettingsReadBackAsTheyWereResolved() {
        for (SftConfig config : List.of(SftConfig.defaults(), sft(Map.of("batch_size", 4, "learning_rate",
                List.of(1e-4, 5e-5), "assistant_turns", "last")))) {
            JobSpec spec = new JobSpec.Sft("https://example.com/d.jsonl", config, Map.of("seed", 7));
            assertEquals(spec, SpecJson.read(SpecJson.write(spec)));
        }
        assertEquals(Map.of("batch_size", "auto", "learning_rate", List.of(5e-5), "assistant_turns", "all"),
                SpecJson.write(new JobSpec.Sft("u", SftConfig.defaults(), Map.of())).get("sft_config"));
    }

    @Test
    void anSftJobStoredBeforeSettingsWereResolvedResolvesItsClientConfigOnReading() {
        JobSpec read = SpecJson.read(Map.of("type", "SFT", "training_data_url", "u", "config", Map.of("batch_size", 4),
                "experimental_config", Map.of("seed", 7)));
        assertEquals(new JobSpec.Sft("u", sft(Map.of("batch_size", 4)), Map.of("seed", 7)), read);
    }
}
