package dev.crucible.application.primitives;

import dev.crucible.domain.model.ModelId;
import dev.crucible.kernel.invariant.NonNull;
import java.util.Map;
import java.util.Optional;

/** What a finished operation returned, one type per kind of answer; the HTTP adapter encodes it for the wire. */
public sealed interface OperationResult permits OperationResult.ModelCreated, OperationResult.ForwardBackward,
        OperationResult.OptimStep, OperationResult.WeightsSaved, OperationResult.WeightsLoaded,
        OperationResult.SamplerWeightsSaved, OperationResult.Sampled, OperationResult.Unloaded {

    /** {@code create_model}: the run's id. */
    record ModelCreated(ModelId run) implements OperationResult {
        public ModelCreated {
            NonNull.components(ModelCreated.class, run);
        }
    }

    /** {@code forward_backward} or {@code forward}. */
    record ForwardBackward(ForwardBackwardOutput output) implements OperationResult {
        public ForwardBackward {
            NonNull.components(ForwardBackward.class, output);
        }
    }

    /** {@code optim_step}: its metrics ({@code name:reduction} keys). */
    record OptimStep(Map<String, Double> metrics) implements OperationResult {
        public OptimStep {
            metrics = Map.copyOf(metrics);
        }
    }

    /** {@code save_weights}: the {@code tinker://} path of the saved state. */
    record WeightsSaved(String path) implements OperationResult {
        public WeightsSaved {
            NonNull.components(WeightsSaved.class, path);
        }
    }

    /** {@code load_weights}: the path it loaded. */
    record WeightsLoaded(String path) implements OperationResult {
        public WeightsLoaded {
            NonNull.components(WeightsLoaded.class, path);
        }
    }

    /** {@code save_weights_for_sampler}: the path when named, the sampling session when ephemeral. */
    record SamplerWeightsSaved(Optional<String> path, Optional<String> samplingSessionId) implements OperationResult {
        public SamplerWeightsSaved {
            NonNull.components(SamplerWeightsSaved.class, path, samplingSessionId);
        }
    }

    /** {@code asample}. */
    record Sampled(SampleOutput output) implements OperationResult {
        public Sampled {
            NonNull.components(Sampled.class, output);
        }
    }

    /** {@code unload_model}. */
    record Unloaded(ModelId run) implements OperationResult {
        public Unloaded {
            NonNull.components(Unloaded.class, run);
        }
    }
}
