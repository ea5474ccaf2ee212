package dev.crucible.server.api;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.crucible.application.job.JobStore;
import dev.crucible.domain.job.JobId;
import dev.crucible.domain.job.JobSpec;
import dev.crucible.domain.job.RlConfig;
import dev.crucible.domain.job.SftConfig;
import dev.crucible.server.support.TestServer;
import dev.crucible.testsupport.database.TestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

/**
 * Jobs stored by earlier versions, their settings in the client's field names ({@code rl_config}, {@code sft_config})
 * or, older still, as the client's raw {@code experimental_config} (RL) or {@code config} (SFT), read back with the
 * same settings once the server has migrated the database.
 */
class JobSettingsMigrationIT {

    private static final String RL_CONFIG = """
            {"learning_rate": 1e-5, "loss_fn": "ppo", "epsilon": 0.3, "epsilon_high": 0.3, "advantage_balance": -0.5,
             "importance_sampling_level": "sequence", "normalize_advantages": false,
             "max_negative_advantage_importance_sampling_weight": 2.0, "mask_prob_ratio": true, "kimi_k2_tau": 0.1,
             "kl_penalty_coef": 0.05, "kl_penalty_step_lag": 2, "allow_training_without_logprobs": true,
             "precalculate_logprobs": true, "truncated_importance_sampling": 3.0,
             "num_trajectories_learning_rate_multiplier_power": 0.5}""";

    private static UUID insert(Connection c, String type, String spec) throws SQLException {
        UUID id = UUID.randomUUID();
        try (PreparedStatement job = c.prepareStatement("INSERT INTO training_jobs (id, type, model_id, entity, status, "
                + "created_at) VALUES (?, ?, ?, 'acme', 'COMPLETED', now())");
                PreparedStatement specs = c.prepareStatement("INSERT INTO training_job_specs (job_id, spec) "
                        + "VALUES (?, CAST(? AS jsonb))")) {
            job.setObject(1, id);
            job.setString(2, type);
            job.setObject(3, UUID.randomUUID());
            job.executeUpdate();
            specs.setObject(1, id);
            specs.setString(2, spec);
            specs.executeUpdate();
        }
        return id;
    }

    private static String text(Connection c, UUID id) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT spec::text FROM training_job_specs WHERE job_id = ?")) {
            s.setObject(1, id);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    @Test
    void settingsStoredInEveryEarlierShapeReadBackAsTheyWereResolved() throws SQLException {
        String url = TestDatabase.freshDatabase();
        Flyway.configure().dataSource(url, "postgres", "").target("6").load().migrate();
        UUID rlResolved;
        UUID rlRaw;
        UUID rlNone;
        UUID sftResolved;
        UUID sftRaw;
        try (Connection c = DriverManager.getConnection(url, "postgres", "")) {
            rlResolved = insert(c, "RL", "{\"type\": \"RL\", \"trajectory_groups\": [], \"rl_config\": " + RL_CONFIG + "}");
            rlRaw = insert(c, "RL", "{\"type\": \"RL\", \"trajectory_groups\": [], \"experimental_config\": "
                    + "{\"ppo\": true, \"scale_rewards\": false}}");
            rlNone = insert(c, "RL", "{\"type\": \"RL\", \"trajectory_groups\": []}");
            sftResolved = insert(c, "SFT", "{\"type\": \"SFT\", \"training_data_url\": \"u\", \"sft_config\": "
                    + "{\"batch_size\": 4, \"learning_rate\": [1e-4, 5e-5], \"assistant_turns\": \"last\"}, "
                    + "\"experimental_config\": {\"seed\": 7}}");
            sftRaw = insert(c, "SFT", "{\"type\": \"SFT\", \"training_data_url\": \"u\", \"config\": "
                    + "{\"batch_size\": \"auto\", \"learning_rate\": 1e-4}, \"experimental_config\": {}}");
        }
        Map<String, Object> ppo = new LinkedHashMap<>(Map.of("learning_rate", 1e-5, "loss_fn", "ppo",
                "epsilon", 0.3, "epsilon_high", 0.3, "advantage_balance", -0.5, "importance_sampling_level", "sequence",
                "normalize_advantages", false, "max_negative_advantage_importance_sampling_weight", 2.0,
                "mask_prob_ratio", true, "kimi_k2_tau", 0.1));
        ppo.putAll(Map.of("kl_penalty_coef", 0.05, "kl_penalty_step_lag", 2, "allow_training_without_logprobs", true,
                "precalculate_logprobs", true, "truncated_importance_sampling", 3.0,
                "num_trajectories_learning_rate_multiplier_power", 0.5));

        try (TestServer server = TestServer.start(url, TestServer.newDataDir(), Map.of("crucible.runner.enabled",
                "false"))) {
            JobStore jobs = server.bean(JobStore.class);
            assertEquals(new JobSpec.Rl(List.of(), value(RlConfig.resolve(ppo))), spec(jobs, rlResolved));
            assertEquals(new JobSpec.Rl(List.of(), value(RlConfig.resolve(Map.of("ppo", true, "scale_rewards",
                    false)))), spec(jobs, rlRaw));
            assertEquals(new JobSpec.Rl(List.of(), RlConfig.defaults()), spec(jobs, rlNone));
            assertEquals(new JobSpec.Sft("u", value(SftConfig.resolve(Map.of("batch_size", 4, "learning_rate",
                    List.of(1e-4, 5e-5), "assistant_turns", "last"))), Map.of("seed", 7)), spec(jobs, sftResolved));
            assertEquals(new JobSpec.Sft("u", value(SftConfig.resolve(Map.of("learning_rate", 1e-4))), Map.of()),
                    spec(jobs, sftRaw));
        }
        try (Connection c = DriverManager.getConnection(url, "postgres", "")) {
            // The client's raw maps are gone once resolved: a spec holds its settings once.
            assertFalse(text(c, rlRaw).contains("experimental_config"), text(c, rlRaw));
            assertFalse(text(c, sftRaw).contains("\"config\""), text(c, sftRaw));
        }
    }

    private static JobSpec spec(JobStore jobs, UUID id) {
        return jobs.spec(new JobId(id)).orElseThrow();
    }
}
