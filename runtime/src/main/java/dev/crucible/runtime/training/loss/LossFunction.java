package dev.crucible.runtime.training.loss;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The loss functions {@code forward_backward} knows, by their wire names, with the inputs each reads and the
 * {@code loss_fn_config} settings each takes. With {@code lp} the learner's log-probability of a target, {@code q} the
 * sampler's ({@code logprobs}), {@code A} the advantage, {@code w} the weight and {@code r = exp(lp - q)}, each is a
 * sum over every position of every datum (never a mean).
 */
public enum LossFunction {

    /** {@code sum(-lp * w)}. */
    CROSS_ENTROPY("cross_entropy", Set.of("target_tokens", "weights"), List.of()),

    /** {@code -sum(r * A)}: REINFORCE with an importance ratio; no weights. */
    IMPORTANCE_SAMPLING("importance_sampling", Set.of("target_tokens", "logprobs", "advantages"), List.of()),

    /** {@code -sum(min(r * A, clip(r, low, high) * A))}, thresholds 0.8 and 1.2 unless given. */
    PPO("ppo", Set.of("target_tokens", "logprobs", "advantages"), List.of(
            new LossSetting("clip_low_threshold", 0.8, 0, 1),
            new LossSetting("clip_high_threshold", 1.2, 1, Double.MAX_VALUE))),

    /** {@code -sum(stopgrad(clip(r, low, high)) * lp * A)}, thresholds 0 and 4 unless given. */
    CISPO("cispo", Set.of("target_tokens", "logprobs", "advantages"), List.of(
            new LossSetting("clip_low_threshold", 0.0, 0, 1),
            new LossSetting("clip_high_threshold", 4.0, 1, Double.MAX_VALUE))),

    /** {@code -sum(lp * A - beta / 2 * (lp - q)^2)}, beta 0.05 unless given (docs/decisions.md says why). */
    DRO("dro", Set.of("target_tokens", "logprobs", "advantages"), List.of(
            new LossSetting("beta", 0.05, 0, Double.MAX_VALUE)));

    private final String wireName;
    private final Set<String> inputs;
    private final List<LossSetting> settings;

    LossFunction(String wireName, Set<String> inputs, List<LossSetting> settings) {
        this.wireName = wireName;
        this.inputs = inputs;
        this.settings = settings;
    }

    public String wireName() {
        return wireName;
    }

    /** The names of the per-datum inputs it reads ({@code target_tokens} always among them). */
    public Set<String> inputs() {
        return inputs;
    }

    /** The names of the {@code loss_fn_config} settings it takes. */
    public Set<String> settings() {
        return settings.stream().map(LossSetting::name).collect(Collectors.toUnmodifiableSet());
    }

    /** Each setting's value when a call leaves it out. */
    public Map<String, Double> defaults() {
        Map<String, Double> defaults = new TreeMap<>();
        settings.forEach(s -> defaults.put(s.name(), s.defaultValue()));
        return Map.copyOf(defaults);
    }

    /**
     * Checks a call's {@code loss_fn_config} and fills in the defaults. Clip thresholds must satisfy
     * {@code 0 <= low <= 1 <= high} (a range that excludes 1 would clip the on-policy ratio itself), {@code beta >= 0};
     * every value finite.
     *
     * @param config the settings as sent, by name; empty for none
     * @return every setting of this loss, by name, or a refusal of the first unknown key (in name order) or value out
     *         of range, whose {@code param} is {@code loss_fn_config.<key>}
     */
    public Outcome<Map<String, Double>> configure(Map<String, Double> config) {
        Map<String, Double> resolved = new LinkedHashMap<>();
        for (Map.Entry<String, Double> e : new TreeMap<>(config).entrySet()) {
            String param = "loss_fn_config." + e.getKey();
            Optional<LossSetting> setting = settings.stream().filter(s -> s.name().equals(e.getKey())).findFirst();
            if (setting.isEmpty()) {
                return Outcome.refused(Refusal.invalid(param, wireName + " takes " + (settings.isEmpty()
                        ? "no loss_fn_config settings" : "only " + String.join(", ", new TreeMap<>(defaults())
                                .keySet())) + ", got '" + e.getKey() + "'"));
            }
            LossSetting s = setting.get();
            if (e.getValue() == null || !s.accepts(e.getValue())) {
                return Outcome.refused(Refusal.invalid(param, param + " of " + wireName + " must be "
                        + (s.max() == Double.MAX_VALUE ? "finite and >= " + s.min() : "in [" + s.min() + ", " + s.max()
                                + "]") + ", got " + e.getValue()));
            }
            resolved.put(s.name(), e.getValue());
        }
        settings.forEach(s -> resolved.putIfAbsent(s.name(), s.defaultValue()));
        return Outcome.done(Map.copyOf(resolved));
    }

    /** The loss function of that wire name, if there is one. */
    public static Optional<LossFunction> named(String wireName) {
        return Arrays.stream(values()).filter(f -> f.wireName.equals(wireName)).findFirst();
    }
}
