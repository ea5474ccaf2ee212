package dev.crucible.application.primitives;

import dev.crucible.kernel.invariant.NonNull;
import java.util.List;
import java.util.Map;

/**
 * One {@code forward_backward} (or, with {@code forwardOnly}, {@code forward}) call: the datums, the loss function by
 * its wire name ({@code cross_entropy}, {@code importance_sampling}, {@code ppo}, {@code cispo}, {@code dro}) and its
 * numeric settings ({@code clip_low_threshold}, {@code beta}, ...). Checked against the model when it runs.
 */
public record ForwardBackwardInput(List<Datum> data, String lossFn, Map<String, Double> lossFnConfig,
        boolean forwardOnly) {

    public ForwardBackwardInput {
        NonNull.components(ForwardBackwardInput.class, data, lossFn, lossFnConfig);
        data = List.copyOf(data);
        lossFnConfig = Map.copyOf(lossFnConfig);
    }
}
