package dev.crucible.adapters.persistence.job;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.job.LossFunction;
import dev.crucible.domain.job.RlConfig;
import dev.crucible.domain.job.SftConfig;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A job's resolved settings as JSON-shaped maps in the client's field names, every setting written (defaults
 * included), so that what is stored is what was decided when the job was posted. Reading goes back through the
 * domain's resolver, which for such a complete map applies no default; it also reads the client's raw maps that jobs
 * stored before settings were stored resolved, resolving them as the runner then did.
 */
final class ConfigJson {

    private ConfigJson() {
    }

    static Map<String, Object> write(RlConfig c) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("learning_rate", c.learningRate());
        out.put("loss_fn", c.lossFunction() == LossFunction.PPO ? "ppo" : "cispo");
        out.put("epsilon", c.epsilon());
        out.put("epsilon_high", c.epsilonHigh());
        out.put("advantage_balance", c.advantageBalance());
        out.put("importance_sampling_level", c.importanceSamplingLevel());
        out.put("normalize_advantages", c.normalizeAdvantages());
        putIfSet(out, "max_negative_advantage_importance_sampling_weight", c.maxNegativeAdvantageWeight());
        out.put("mask_prob_ratio", c.maskProbRatio());
        putIfSet(out, "kimi_k2_tau", c.kimiK2Tau());
        out.put("kl_penalty_coef", c.klPenaltyCoef());
        putIfSet(out, "kl_penalty_reference_step", c.klPenaltyReferenceStep());
        putIfSet(out, "kl_penalty_step_lag", c.klPenaltyStepLag());
        out.put("allow_training_without_logprobs", c.allowTrainingWithoutLogprobs());
        out.put("precalculate_logprobs", c.precalculateLogprobs());
        putIfSet(out, "truncated_importance_sampling", c.truncatedImportanceSampling());
        out.put("num_trajectories_learning_rate_multiplier_power", c.lrTrajectoryPower());
        return out;
    }

    static Map<String, Object> write(SftConfig c) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("batch_size", c.batchSize().<Object>map(size -> size).orElse("auto"));
        out.put("learning_rate", c.learningRates());
        out.put("assistant_turns", c.lastAssistantTurnOnly() ? "last" : "all");
        return out;
    }

    static RlConfig rl(Map<String, Object> json) {
        return read(RlConfig.resolve(json), "RL");
    }

    static SftConfig sft(Map<String, Object> json) {
        return read(SftConfig.resolve(json), "SFT");
    }

    /** A stored config that no longer resolves is a bug (it was resolved before it was stored), not the client's. */
    private static <T> T read(Outcome<T> resolved, String kind) {
        return switch (resolved) {
            case Outcome.Done<T> done -> done.value();
            case Outcome.Refused<T> refused -> throw new IllegalStateException("stored " + kind
                    + " config no longer valid: " + refused.refusal().message());
        };
    }

    private static void putIfSet(Map<String, Object> out, String key, Object value) {
        if (value != null) {
            out.put(key, value);
        }
    }
}
