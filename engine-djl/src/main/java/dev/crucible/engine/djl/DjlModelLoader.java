package dev.crucible.engine.djl;

import ai.djl.ndarray.NDManager;
import dev.crucible.engine.spi.EngineException;
import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.hf.ModelFormatException;
import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.folder.ModelFolder;
import dev.crucible.hf.safetensors.SafetensorsReader;
import java.io.IOException;

/** Loads a model folder into a {@link DjlModelRunner}; every failure names the folder and frees what was taken. */
final class DjlModelLoader {

    private DjlModelLoader() {
    }

    static ModelRunner load(DjlRuntime runtime, ModelFolder model) {
        return load(runtime, model, DjlTensors.BUFFER_LIMIT);
    }

    /** {@link #load} with the embedding and head held in parts of at most {@code maxPartBytes} (tests split them). */
    static ModelRunner load(DjlRuntime runtime, ModelFolder model, long maxPartBytes) {
        // Llama, Qwen2 and Qwen3 share one decoder and differ only in what ModelConfig switches on (q/k/v and output
        // biases, q/k norms, tied head, rope scaling), so every architecture hf-format reads runs here; an unknown one
        // never gets this far: ModelFolder.read refuses it, naming it.
        ModelConfig config = model.config();
        NDManager manager = runtime.engine().newBaseManager(runtime.device());
        SafetensorsReader reader = null;
        try {
            reader = model.openWeights();
            DjlWeights weights = DjlWeights.load(config, new DjlTensors(reader, manager, maxPartBytes));
            return new DjlModelRunner(config, reader, manager, weights, runtime.threads());
        } catch (IOException | RuntimeException e) {
            manager.close();
            if (reader != null) {
                reader.close();
            }
            throw failure(model, e);
        }
    }

    private static RuntimeException failure(ModelFolder model, Exception e) {
        String where = "cannot load " + model.dir() + ": ";
        return switch (e) {
            case EngineException ee -> new EngineException(ee.reason(), where + ee.getMessage(), ee);
            // hf-format refuses dtypes it does not know (F8_E4M3, ...) while reading the header.
            case ModelFormatException mf when mf.getMessage().contains("unsupported dtype") ->
                    new EngineException(EngineException.Reason.UNSUPPORTED_DTYPE, where + mf.getMessage(), mf);
            case ModelFormatException mf ->
                    new EngineException(EngineException.Reason.INVALID_MODEL, where + mf.getMessage(), mf);
            case IOException io -> new EngineException(EngineException.Reason.INVALID_MODEL, where + io, io);
            case ai.djl.engine.EngineException de ->
                    new EngineException(EngineException.Reason.RUNTIME_UNAVAILABLE, where + de.getMessage(), de);
            case RuntimeException bug -> bug;
            default -> new IllegalStateException(e);
        };
    }
}
