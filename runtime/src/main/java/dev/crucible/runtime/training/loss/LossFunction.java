package dev.crucible.runtime.training.loss;

import java.util.Arrays;
import java.util.Optional;
import java.util.Set;

/** The loss functions {@code forward_backward} knows, by their wire names, with the inputs each needs. */
public enum LossFunction {

    /** {@code sum(-logprob * weight)}. */
    CROSS_ENTROPY("cross_entropy", Set.of("target_tokens", "weights"), Set.of());

    private final String wireName;
    private final Set<String> inputs;
    private final Set<String> settings;

    LossFunction(String wireName, Set<String> inputs, Set<String> settings) {
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
        return settings;
    }

    /** The loss function of that wire name, if there is one. */
    public static Optional<LossFunction> named(String wireName) {
        return Arrays.stream(values()).filter(f -> f.wireName.equals(wireName)).findFirst();
    }
}
