package dev.crucible.domain.job;

import dev.crucible.kernel.reading.JsonReader;
import dev.crucible.kernel.refusal.Outcome;
import java.util.Map;
import java.util.Set;

/**
 * The RL trainer's settings, resolved from the client's {@code experimental_config}: a missing key or
 * {@code null} takes ART's default, unknown keys are ignored. Defaults follow ART's serverless backend.
 *
 * @param learningRate AdamW learning rate (5e-6)
 * @param lossFunction CISPO unless {@code ppo} or {@code loss_fn} asks for PPO
 * @param epsilon lower clip width (0.2 PPO, 1.0 CISPO)
 * @param epsilonHigh upper clip width (epsilon for PPO, 4.0 CISPO)
 * @param advantageBalance in [-1, 1]: scales negative (b &gt; 0) or positive (b &lt; 0) advantages
 * @param importanceSamplingLevel token, sequence, average or geometric_average
 * @param normalizeAdvantages divide advantages by the group's reward std ({@code scale_rewards})
 * @param maxNegativeAdvantageWeight upper clamp on the ratio, or null
 * @param maskProbRatio zero the ratio outside the clip range
 * @param kimiK2Tau advantage correction, or null
 * @param klPenaltyCoef KL penalty against the reference policy (0 = off)
 * @param klPenaltyReferenceStep reference checkpoint step, or null for the base model
 * @param klPenaltyStepLag reference = max(0, current - lag), or null
 * @param allowTrainingWithoutLogprobs train plain assistant messages too
 * @param precalculateLogprobs recompute old logprobs before training
 * @param truncatedImportanceSampling cap on the sampler correction, or null
 * @param lrTrajectoryPower lr multiplier exponent on the number of trajectories
 * @param maxLogprobDrift fail a gradient step whose mean {@code |trainer - sampler|} log-probability over its tokens
 *                        with a sampler log-probability is above this, in nats; null (the default) never fails one.
 *                        A Crucible setting, not ART's.
 */
public record RlConfig(double learningRate, LossFunction lossFunction, double epsilon, double epsilonHigh,
        double advantageBalance, String importanceSamplingLevel, boolean normalizeAdvantages,
        Double maxNegativeAdvantageWeight, boolean maskProbRatio, Double kimiK2Tau, double klPenaltyCoef,
        Integer klPenaltyReferenceStep, Integer klPenaltyStepLag, boolean allowTrainingWithoutLogprobs,
        boolean precalculateLogprobs, Double truncatedImportanceSampling, double lrTrajectoryPower,
        Double maxLogprobDrift) {

    public static final String PARAM = "experimental_config";
    public static final double DEFAULT_LEARNING_RATE = 5e-6;
    /** The setting's wire name, for messages that name it. */
    public static final String MAX_LOGPROB_DRIFT = "max_logprob_drift";
    private static final Set<String> IS_LEVELS = Set.of("token", "sequence", "average", "geometric_average");
    private static final Set<String> LOSS_FNS = Set.of("cispo", "ppo");
    private static final Set<String> KL_SOURCES = Set.of("current_learner", "sample");

    /** ART's defaults: what an empty {@code experimental_config} resolves to. */
    public static RlConfig defaults() {
        return resolve(Map.of()).orElseThrow();
    }

    /** Resolves {@code config} (null means all defaults), refusing wrong types and out-of-range values. */
    public static Outcome<RlConfig> resolve(Map<String, Object> config) {
        return JsonReader.read(config == null ? Map.of() : config, PARAM, RlConfig::read);
    }

    /**
     * Reads the client's {@code experimental_config} object, as the HTTP adapter does with its reader at {@code experimental_config}.
     *
     * @throws dev.crucible.kernel.refusal.RefusalException naming the first wrong field by its path
     */
    public static RlConfig read(JsonReader r) {
        double lr = r.positive("learning_rate", DEFAULT_LEARNING_RATE);
        boolean ppoFlag = r.bool("ppo", false);
        String lossFn = r.oneOf("loss_fn", null, LOSS_FNS);
        if (lossFn != null && r.present("ppo") && ppoFlag != lossFn.equals("ppo")) {
            throw r.reject("loss_fn", "must agree with ppo, got loss_fn '" + lossFn + "' and ppo " + ppoFlag);
        }
        LossFunction loss = (lossFn != null ? lossFn.equals("ppo") : ppoFlag) ? LossFunction.PPO : LossFunction.CISPO;
        double epsilon = r.positive("epsilon", loss == LossFunction.PPO ? 0.2 : 1.0);
        double epsilonHigh = r.positive("epsilon_high", loss == LossFunction.PPO ? epsilon : 4.0);
        double balance = r.number("advantage_balance", 0.0, -1.0, 1.0);
        String level = r.oneOf("importance_sampling_level", "token", IS_LEVELS);
        boolean scale = r.bool("scale_rewards", true);
        boolean normalize = r.bool("normalize_advantages", scale);
        Double maxNeg = r.positive("max_negative_advantage_importance_sampling_weight", null);
        boolean mask = r.bool("mask_prob_ratio", false);
        Double tau = r.number("kimi_k2_tau", null);
        double klCoef = r.number("kl_penalty_coef", 0.0, 0.0, Double.MAX_VALUE);
        Integer refStep = r.integer("kl_penalty_reference_step", null, 0);
        Integer lag = r.integer("kl_penalty_step_lag", null, 1);
        if (refStep != null && lag != null) {
            throw r.reject("kl_penalty_step_lag", "cannot be combined with kl_penalty_reference_step");
        }
        r.oneOf("kl_penalty_source", null, KL_SOURCES);
        boolean withoutLogprobs = r.bool("allow_training_without_logprobs", false);
        boolean precalc = r.bool("precalculate_logprobs", false);
        Double tis = r.positive("truncated_importance_sampling", null);
        double power = r.number("num_trajectories_learning_rate_multiplier_power", 0.0);
        r.integer("packed_sequence_length", null, 1);
        r.integer("logprob_calculation_chunk_size", null, 1);
        Double maxDrift = r.number(MAX_LOGPROB_DRIFT, null);
        if (maxDrift != null && maxDrift < 0) {
            throw r.reject(MAX_LOGPROB_DRIFT, "must be >= 0, got " + maxDrift);
        }
        return new RlConfig(lr, loss, epsilon, epsilonHigh, balance, level, normalize, maxNeg, mask, tau, klCoef,
                refStep, lag, withoutLogprobs, precalc, tis, power, maxDrift);
    }
}
