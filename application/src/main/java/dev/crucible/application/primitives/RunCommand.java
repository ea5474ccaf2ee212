package dev.crucible.application.primitives;

import dev.crucible.kernel.invariant.NonNull;
import java.util.Optional;
import java.util.OptionalLong;

/** What a sequenced operation of a training run asks, as the HTTP adapter decoded it. */
public sealed interface RunCommand permits RunCommand.ForwardBackward, RunCommand.OptimStep, RunCommand.SaveWeights,
        RunCommand.LoadWeights, RunCommand.SaveForSampler, RunCommand.Unload {

    /** {@code forward_backward}, or {@code forward} when {@code input.forwardOnly()}. */
    record ForwardBackward(ForwardBackwardInput input) implements RunCommand {
        public ForwardBackward {
            NonNull.components(ForwardBackward.class, input);
        }
    }

    /**
     * {@code optim_step}: AdamW with Tinker's {@code adam_params}; a clip norm of 0 means no clipping.
     */
    record OptimStep(double learningRate, double beta1, double beta2, double eps, double weightDecay,
            double gradClipNorm) implements RunCommand {
        public OptimStep {
            if (!(learningRate >= 0) || !(beta1 >= 0 && beta1 < 1) || !(beta2 >= 0 && beta2 < 1) || !(eps > 0)
                    || !(weightDecay >= 0) || !(gradClipNorm >= 0) || Double.isInfinite(learningRate)) {
                throw new IllegalArgumentException("adam_params out of range (the adapter checks each)");
            }
        }
    }

    /** {@code save_weights}: the adapter and optimiser state under {@code name}. */
    record SaveWeights(String name) implements RunCommand {
        public SaveWeights {
            NonNull.components(SaveWeights.class, name);
        }
    }

    /** {@code load_weights} from a {@code tinker://} path, with or without its optimiser state. */
    record LoadWeights(String path, boolean optimizer) implements RunCommand {
        public LoadWeights {
            NonNull.components(LoadWeights.class, path);
        }
    }

    /** {@code save_weights_for_sampler}: named (a checkpoint), or ephemeral (a sampling session of its own). */
    record SaveForSampler(Optional<String> name, OptionalLong samplingSessionSeqId) implements RunCommand {
        public SaveForSampler {
            NonNull.components(SaveForSampler.class, name, samplingSessionSeqId);
        }
    }

    /** {@code unload_model}: the run's in-memory state is freed once the operations before it have run. */
    record Unload() implements RunCommand {
    }
}
