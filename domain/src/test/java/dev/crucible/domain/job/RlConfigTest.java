package dev.crucible.domain.job;

import static dev.crucible.domain.refusal.Outcomes.assertInvalid;
import static dev.crucible.domain.refusal.Outcomes.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RlConfigTest {

    /** ART's serverless defaults, written out independently of the code. */
    private static final RlConfig ART_DEFAULTS = new RlConfig(5e-6, LossFunction.CISPO, 1.0, 4.0, 0.0, "token",
            true, null, false, null, 0.0, null, null, false, false, null, 0.0);

    private static RlConfig resolved(Map<String, Object> config) {
        return value(RlConfig.resolve(config));
    }

    @Test
    void emptyConfigTakesAllArtDefaults() {
        assertEquals(ART_DEFAULTS, resolved(Map.of()));
        assertEquals(5e-6, RlConfig.DEFAULT_LEARNING_RATE);
    }

    @Test
    void nullConfigTakesAllArtDefaults() {
        assertEquals(ART_DEFAULTS, resolved(null));
    }

    @Test
    void nullValuesMeanTheDefault() {
        Map<String, Object> config = new HashMap<>();
        config.put("learning_rate", null);
        config.put("ppo", null);
        config.put("epsilon", null);
        config.put("kl_penalty_step_lag", null);
        assertEquals(ART_DEFAULTS, resolved(config));
    }

    @Test
    void unknownKeysAreIgnored() {
        assertEquals(ART_DEFAULTS, resolved(Map.of("future_knob", "anything", "another", 3)));
    }

    @Test
    void readsEveryExplicitSetting() {
        Map<String, Object> config = new HashMap<>();
        config.put("learning_rate", 1e-4);
        config.put("loss_fn", "ppo");
        config.put("epsilon", 0.3);
        config.put("epsilon_high", 0.5);
        config.put("advantage_balance", -0.25);
        config.put("importance_sampling_level", "sequence");
        config.put("normalize_advantages", false);
        config.put("max_negative_advantage_importance_sampling_weight", 2.0);
        config.put("mask_prob_ratio", true);
        config.put("kimi_k2_tau", -0.5);
        config.put("kl_penalty_coef", 0.1);
        config.put("kl_penalty_reference_step", 0);
        config.put("kl_penalty_source", "sample");
        config.put("allow_training_without_logprobs", true);
        config.put("precalculate_logprobs", true);
        config.put("truncated_importance_sampling", 1.5);
        config.put("num_trajectories_learning_rate_multiplier_power", 0.5);
        config.put("packed_sequence_length", 2048);
        config.put("logprob_calculation_chunk_size", 64);
        assertEquals(new RlConfig(1e-4, LossFunction.PPO, 0.3, 0.5, -0.25, "sequence", false, 2.0, true, -0.5, 0.1,
                0, null, true, true, 1.5, 0.5), resolved(config));
    }

    @Test
    void ppoFlagSwitchesToPpoWithItsClipDefaults() {
        RlConfig config = resolved(Map.of("ppo", true));
        assertEquals(LossFunction.PPO, config.lossFunction());
        assertEquals(0.2, config.epsilon());
        assertEquals(0.2, config.epsilonHigh());
    }

    @Test
    void ppoEpsilonHighDefaultsToEpsilon() {
        assertEquals(0.35, resolved(Map.of("ppo", true, "epsilon", 0.35)).epsilonHigh());
    }

    @Test
    void cispoEpsilonHighStaysAt4WhenEpsilonIsSet() {
        RlConfig config = resolved(Map.of("epsilon", 0.5));
        assertEquals(LossFunction.CISPO, config.lossFunction());
        assertEquals(0.5, config.epsilon());
        assertEquals(4.0, config.epsilonHigh());
    }

    @Test
    void ppoFalseIsCispo() {
        assertEquals(ART_DEFAULTS, resolved(Map.of("ppo", false)));
    }

    @Test
    void lossFnChoosesTheLossWithoutThePpoFlag() {
        assertEquals(LossFunction.PPO, resolved(Map.of("loss_fn", "ppo")).lossFunction());
        assertEquals(LossFunction.CISPO, resolved(Map.of("loss_fn", "cispo")).lossFunction());
    }

    @Test
    void lossFnAndPpoFlagMayAgree() {
        assertEquals(LossFunction.PPO, resolved(Map.of("loss_fn", "ppo", "ppo", true)).lossFunction());
        assertEquals(LossFunction.CISPO, resolved(Map.of("loss_fn", "cispo", "ppo", false)).lossFunction());
    }

    @Test
    void lossFnThatContradictsPpoFlagIsRefused() {
        assertInvalid(RlConfig.resolve(Map.of("loss_fn", "ppo", "ppo", false)), "experimental_config.loss_fn",
                "experimental_config.loss_fn must agree with ppo, got loss_fn 'ppo' and ppo false");
        assertInvalid(RlConfig.resolve(Map.of("loss_fn", "cispo", "ppo", true)), "experimental_config.loss_fn",
                "experimental_config.loss_fn must agree with ppo, got loss_fn 'cispo' and ppo true");
    }

    @Test
    void unknownLossFnIsRefused() {
        assertInvalid(RlConfig.resolve(Map.of("loss_fn", "grpo")), "experimental_config.loss_fn",
                "experimental_config.loss_fn must be one of [cispo, ppo], got 'grpo'");
    }

    @Test
    void advantageBalanceAcceptsMinusOneToOne() {
        assertEquals(-1.0, resolved(Map.of("advantage_balance", -1)).advantageBalance());
        assertEquals(1.0, resolved(Map.of("advantage_balance", 1)).advantageBalance());
    }

    @Test
    void advantageBalanceOutsideMinusOneToOneIsRefused() {
        assertInvalid(RlConfig.resolve(Map.of("advantage_balance", 1.5)), "experimental_config.advantage_balance",
                "experimental_config.advantage_balance must be between -1.0 and 1.0, got 1.5");
        assertInvalid(RlConfig.resolve(Map.of("advantage_balance", -1.01)), "experimental_config.advantage_balance",
                "experimental_config.advantage_balance must be between -1.0 and 1.0, got -1.01");
    }

    @Test
    void importanceSamplingLevelAcceptsItsFourValues() {
        for (String level : new String[] {"token", "sequence", "average", "geometric_average"}) {
            assertEquals(level, resolved(Map.of("importance_sampling_level", level)).importanceSamplingLevel());
        }
    }

    @Test
    void unknownImportanceSamplingLevelIsRefused() {
        assertInvalid(RlConfig.resolve(Map.of("importance_sampling_level", "word")),
                "experimental_config.importance_sampling_level",
                "experimental_config.importance_sampling_level must be one of "
                        + "[average, geometric_average, sequence, token], got 'word'");
    }

    @Test
    void scaleRewardsFalseTurnsOffNormalisationUnlessNormalizeAdvantagesSaysOtherwise() {
        assertFalse(resolved(Map.of("scale_rewards", false)).normalizeAdvantages());
        assertTrue(resolved(Map.of("scale_rewards", false, "normalize_advantages", true)).normalizeAdvantages());
        assertFalse(resolved(Map.of("normalize_advantages", false)).normalizeAdvantages());
    }

    @Test
    void klPenaltyStepLagMustBeAtLeast1() {
        assertEquals(1, resolved(Map.of("kl_penalty_step_lag", 1)).klPenaltyStepLag());
        assertInvalid(RlConfig.resolve(Map.of("kl_penalty_step_lag", 0)), "experimental_config.kl_penalty_step_lag",
                "experimental_config.kl_penalty_step_lag must be >= 1, got 0");
    }

    @Test
    void klPenaltyReferenceStepMayBe0ButNotNegative() {
        assertEquals(0, resolved(Map.of("kl_penalty_reference_step", 0)).klPenaltyReferenceStep());
        assertInvalid(RlConfig.resolve(Map.of("kl_penalty_reference_step", -1)),
                "experimental_config.kl_penalty_reference_step",
                "experimental_config.kl_penalty_reference_step must be >= 0, got -1");
    }

    @Test
    void klPenaltyStepLagCannotBeCombinedWithAReferenceStep() {
        assertInvalid(RlConfig.resolve(Map.of("kl_penalty_step_lag", 2, "kl_penalty_reference_step", 3)),
                "experimental_config.kl_penalty_step_lag",
                "experimental_config.kl_penalty_step_lag cannot be combined with kl_penalty_reference_step");
    }

    @Test
    void negativeKlPenaltyCoefIsRefused() {
        assertInvalid(RlConfig.resolve(Map.of("kl_penalty_coef", -0.1)), "experimental_config.kl_penalty_coef",
                "experimental_config.kl_penalty_coef must be between 0.0 and " + Double.MAX_VALUE + ", got -0.1");
    }

    @Test
    void unknownKlPenaltySourceIsRefused() {
        assertInvalid(RlConfig.resolve(Map.of("kl_penalty_source", "oracle")), "experimental_config.kl_penalty_source",
                "experimental_config.kl_penalty_source must be one of [current_learner, sample], got 'oracle'");
        assertEquals(ART_DEFAULTS, resolved(Map.of("kl_penalty_source", "current_learner")));
    }

    @Test
    void packingSettingsMustBePositiveIntegers() {
        assertInvalid(RlConfig.resolve(Map.of("packed_sequence_length", 0)), "experimental_config.packed_sequence_length",
                "experimental_config.packed_sequence_length must be >= 1, got 0");
        assertInvalid(RlConfig.resolve(Map.of("logprob_calculation_chunk_size", 0)),
                "experimental_config.logprob_calculation_chunk_size",
                "experimental_config.logprob_calculation_chunk_size must be >= 1, got 0");
    }

    @Test
    void nonPositiveRatesAndClipsAreRefused() {
        assertInvalid(RlConfig.resolve(Map.of("learning_rate", 0)), "experimental_config.learning_rate",
                "experimental_config.learning_rate must be > 0, got 0.0");
        assertInvalid(RlConfig.resolve(Map.of("epsilon", -1)), "experimental_config.epsilon",
                "experimental_config.epsilon must be > 0, got -1.0");
        assertInvalid(RlConfig.resolve(Map.of("epsilon_high", 0)), "experimental_config.epsilon_high",
                "experimental_config.epsilon_high must be > 0, got 0.0");
        assertInvalid(RlConfig.resolve(Map.of("truncated_importance_sampling", 0)),
                "experimental_config.truncated_importance_sampling",
                "experimental_config.truncated_importance_sampling must be > 0, got 0.0");
        assertInvalid(RlConfig.resolve(Map.of("max_negative_advantage_importance_sampling_weight", 0)),
                "experimental_config.max_negative_advantage_importance_sampling_weight",
                "experimental_config.max_negative_advantage_importance_sampling_weight must be > 0, got 0.0");
    }

    @Test
    void wrongTypesAreRefusedNamingTheKey() {
        assertInvalid(RlConfig.resolve(Map.of("learning_rate", "fast")), "experimental_config.learning_rate",
                "experimental_config.learning_rate must be a number, got a string");
        assertInvalid(RlConfig.resolve(Map.of("ppo", "yes")), "experimental_config.ppo",
                "experimental_config.ppo must be a boolean, got a string");
        assertInvalid(RlConfig.resolve(Map.of("importance_sampling_level", 1)),
                "experimental_config.importance_sampling_level",
                "experimental_config.importance_sampling_level must be a string, got the number 1");
        assertInvalid(RlConfig.resolve(Map.of("kl_penalty_step_lag", 1.5)), "experimental_config.kl_penalty_step_lag",
                "experimental_config.kl_penalty_step_lag must be an integer, got the number 1.5");
        assertInvalid(RlConfig.resolve(Map.of("mask_prob_ratio", Map.of())), "experimental_config.mask_prob_ratio",
                "experimental_config.mask_prob_ratio must be a boolean, got an object");
        assertInvalid(RlConfig.resolve(Map.of("kimi_k2_tau", true)), "experimental_config.kimi_k2_tau",
                "experimental_config.kimi_k2_tau must be a number, got a boolean");
        assertInvalid(RlConfig.resolve(Map.of("num_trajectories_learning_rate_multiplier_power", "x")),
                "experimental_config.num_trajectories_learning_rate_multiplier_power",
                "experimental_config.num_trajectories_learning_rate_multiplier_power must be a number, got a string");
        assertInvalid(RlConfig.resolve(Map.of("scale_rewards", 1)), "experimental_config.scale_rewards",
                "experimental_config.scale_rewards must be a boolean, got the number 1");
        assertInvalid(RlConfig.resolve(Map.of("allow_training_without_logprobs", "no")),
                "experimental_config.allow_training_without_logprobs",
                "experimental_config.allow_training_without_logprobs must be a boolean, got a string");
        assertInvalid(RlConfig.resolve(Map.of("precalculate_logprobs", "no")),
                "experimental_config.precalculate_logprobs",
                "experimental_config.precalculate_logprobs must be a boolean, got a string");
    }
}
