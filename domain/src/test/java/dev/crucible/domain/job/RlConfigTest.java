package dev.crucible.domain.job;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertInvalid;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RlConfigTest {

    /** ART's serverless defaults, written out independently of the code. */
    private static final RlConfig ART_DEFAULTS = new RlConfig(5e-6, LossFunction.CISPO, 1.0, 4.0, 0.0, "token",
            true, null, false, null, 0.0, null, null, false, false, null, 0.0, null);

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
        config.put("max_logprob_drift", 0.05);
        assertEquals(new RlConfig(1e-4, LossFunction.PPO, 0.3, 0.5, -0.25, "sequence", false, 2.0, true, -0.5, 0.1,
                0, null, true, true, 1.5, 0.5, 0.05), resolved(config));
    }

    @Test
    void maxLogprobDriftIsANonNegativeNumber() {
        assertEquals(0.0, resolved(Map.of("max_logprob_drift", 0)).maxLogprobDrift());
        assertRefused("max_logprob_drift", -0.1, "must be >= 0, got -0.1");
        assertRefused("max_logprob_drift", "big", "must be a number, got a string");
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
        assertRefused("loss_fn", "grpo", "must be one of [cispo, ppo], got 'grpo'");
    }

    @Test
    void advantageBalanceAcceptsMinusOneToOne() {
        assertEquals(-1.0, resolved(Map.of("advantage_balance", -1)).advantageBalance());
        assertEquals(1.0, resolved(Map.of("advantage_balance", 1)).advantageBalance());
    }

    @Test
    void advantageBalanceOutsideMinusOneToOneIsRefused() {
        assertRefused("advantage_balance", 1.5, "must be between -1.0 and 1.0, got 1.5");
        assertRefused("advantage_balance", -1.01, "must be between -1.0 and 1.0, got -1.01");
    }

    @Test
    void importanceSamplingLevelAcceptsItsFourValues() {
        for (String level : new String[] {"token", "sequence", "average", "geometric_average"}) {
            assertEquals(level, resolved(Map.of("importance_sampling_level", level)).importanceSamplingLevel());
        }
    }

    @Test
    void unknownImportanceSamplingLevelIsRefused() {
        assertRefused("importance_sampling_level", "word",
                "must be one of [average, geometric_average, sequence, token], got 'word'");
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
        assertRefused("kl_penalty_step_lag", 0, "must be >= 1, got 0");
    }

    @Test
    void klPenaltyReferenceStepMayBe0ButNotNegative() {
        assertEquals(0, resolved(Map.of("kl_penalty_reference_step", 0)).klPenaltyReferenceStep());
        assertRefused("kl_penalty_reference_step", -1, "must be >= 0, got -1");
    }

    @Test
    void klPenaltyStepLagCannotBeCombinedWithAReferenceStep() {
        assertInvalid(RlConfig.resolve(Map.of("kl_penalty_step_lag", 2, "kl_penalty_reference_step", 3)),
                "experimental_config.kl_penalty_step_lag",
                "experimental_config.kl_penalty_step_lag cannot be combined with kl_penalty_reference_step");
    }

    @Test
    void negativeKlPenaltyCoefIsRefused() {
        assertRefused("kl_penalty_coef", -0.1, "must be between 0.0 and " + Double.MAX_VALUE + ", got -0.1");
    }

    @Test
    void unknownKlPenaltySourceIsRefused() {
        assertRefused("kl_penalty_source", "oracle", "must be one of [current_learner, sample], got 'oracle'");
        assertEquals(ART_DEFAULTS, resolved(Map.of("kl_penalty_source", "current_learner")));
    }

    @Test
    void packingSettingsMustBePositiveIntegers() {
        assertRefused("packed_sequence_length", 0, "must be >= 1, got 0");
        assertRefused("logprob_calculation_chunk_size", 0, "must be >= 1, got 0");
    }

    @Test
    void nonPositiveRatesAndClipsAreRefused() {
        assertRefused("learning_rate", 0, "must be > 0, got 0.0");
        assertRefused("epsilon", -1, "must be > 0, got -1.0");
        assertRefused("epsilon_high", 0, "must be > 0, got 0.0");
        assertRefused("truncated_importance_sampling", 0, "must be > 0, got 0.0");
        assertRefused("max_negative_advantage_importance_sampling_weight", 0, "must be > 0, got 0.0");
    }

    @Test
    void wrongTypesAreRefusedNamingTheKey() {
        assertRefused("learning_rate", "fast", "must be a number, got a string");
        assertRefused("ppo", "yes", "must be a boolean, got a string");
        assertRefused("importance_sampling_level", 1, "must be a string, got the number 1");
        assertRefused("kl_penalty_step_lag", 1.5, "must be an integer, got the number 1.5");
        assertRefused("mask_prob_ratio", Map.of(), "must be a boolean, got an object");
        assertRefused("kimi_k2_tau", true, "must be a number, got a boolean");
        assertRefused("num_trajectories_learning_rate_multiplier_power", "x", "must be a number, got a string");
        assertRefused("scale_rewards", 1, "must be a boolean, got the number 1");
        assertRefused("allow_training_without_logprobs", "no", "must be a boolean, got a string");
        assertRefused("precalculate_logprobs", "no", "must be a boolean, got a string");
    }

    private static void assertRefused(String key, Object value, String problem) {
        assertInvalid(RlConfig.resolve(Map.of(key, value)), "experimental_config." + key,
                "experimental_config." + key + " " + problem);
    }
}
