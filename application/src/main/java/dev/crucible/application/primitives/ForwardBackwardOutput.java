package dev.crucible.application.primitives;

import dev.crucible.kernel.invariant.NonNull;
import java.util.List;
import java.util.Map;

/**
 * What {@code forward_backward} returns: per datum, named outputs ({@code logprobs} always, one value per position),
 * and metrics whose every key is {@code name:reduction} ({@code loss:sum} among them), as the Tinker SDK merges them.
 *
 * @param lossFnOutputType a label of the outputs' kind; clients keep only what follows its last colon
 * @param lossFnOutputs    one map per datum, in the order of the input
 * @param metrics          keyed {@code name:reduction}, reduction one of mean, sum, min, max, slack, hash_unordered,
 *                         unique
 */
public record ForwardBackwardOutput(String lossFnOutputType, List<Map<String, Tensor>> lossFnOutputs,
        Map<String, Double> metrics) {

    public ForwardBackwardOutput {
        NonNull.components(ForwardBackwardOutput.class, lossFnOutputType, lossFnOutputs, metrics);
        lossFnOutputs = lossFnOutputs.stream().map(Map::copyOf).toList();
        metrics = Map.copyOf(metrics);
    }
}
