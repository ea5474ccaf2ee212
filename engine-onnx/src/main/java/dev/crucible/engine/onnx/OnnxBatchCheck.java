package dev.crucible.engine.onnx;

import dev.crucible.engine.spi.LoraAdapter;
import dev.crucible.engine.spi.SequenceInput;
import java.util.List;

/**
 * Checks a forward batch's adapters before anything is computed (each this runner's and open), so a refusal leaves
 * every cache unchanged; {@link dev.crucible.engine.spi.RunnerKvCache#checkBatch} checks the rest.
 */
final class OnnxBatchCheck {

    private OnnxBatchCheck() {
    }

    /** Refuses an adapter another runner loaded, or one that is closed, naming the sequence. */
    static void adapters(List<SequenceInput> batch, OnnxModelRunner runner) {
        for (int i = 0; i < batch.size(); i++) {
            LoraAdapter adapter = batch.get(i).adapter();
            if (adapter == null) {
                continue;
            }
            if (!(adapter instanceof OnnxLoraAdapter own) || !own.belongsTo(runner.resources())) {
                throw new IllegalArgumentException("sequence " + i + ": the adapter was not loaded by this model "
                        + "runner");
            }
            if (own.isClosed()) {
                throw new IllegalArgumentException("sequence " + i + ": the adapter is closed");
            }
        }
    }
}
