package dev.crucible.application.primitives;

import dev.crucible.engine.spi.TrainingSequence;
import dev.crucible.kernel.invariant.NonNull;
import dev.crucible.runtime.training.loss.LossFunction;
import dev.crucible.runtime.training.loss.LossInputs;
import java.util.List;
import java.util.Map;

/**
 * A {@code forward_backward} call checked against its model: one training sequence and one set of loss inputs per
 * datum, in order, and the loss with its settings.
 */
record PreparedBatch(LossFunction function, Map<String, Double> config, List<TrainingSequence> sequences,
        List<LossInputs> inputs, boolean forwardOnly) {

    PreparedBatch {
        NonNull.components(PreparedBatch.class, function, config, sequences, inputs);
        config = Map.copyOf(config);
        sequences = List.copyOf(sequences);
        inputs = List.copyOf(inputs);
    }

    long tokens() {
        return sequences.stream().mapToLong(TrainingSequence::targetCount).sum();
    }
}
