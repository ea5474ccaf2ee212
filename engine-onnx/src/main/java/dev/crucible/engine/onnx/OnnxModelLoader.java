package dev.crucible.engine.onnx;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.crucible.engine.spi.EngineException;
import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.hf.ModelFormatException;
import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.folder.ModelFolder;
import dev.crucible.hf.safetensors.SafetensorsReader;
import java.io.IOException;

/**
 * Loads a model folder into an {@link OnnxModelRunner}, and makes its sessions: builds the decoder graph for the
 * config (with or without LoRA inputs), points ONNX Runtime at the weights and creates the session. Weights ONNX
 * Runtime copies are copied while the session is created, so the files are unmapped on the Java side before this
 * returns. Every failure names the folder and frees what was taken.
 */
final class OnnxModelLoader {

    private OnnxModelLoader() {
    }

    static ModelRunner load(OnnxRuntime runtime, ModelFolder model, OnnxPrecision precision) {
        // Llama, Qwen2 and Qwen3 differ only in what ModelConfig switches on (biases, q/k norms, tied head, rope
        // scaling); an architecture hf-format does not know never gets this far.
        return new OnnxModelRunner(model.config(), runtime, model, precision,
                session(runtime, model, false, precision));
    }

    /** A session of the model's decoder graph; {@code lora} adds the per-row LoRA inputs. */
    static OnnxSession session(OnnxRuntime runtime, ModelFolder model, boolean lora, OnnxPrecision precision) {
        ModelConfig config = model.config();
        try (SafetensorsReader reader = model.openWeights()) {
            OrtEnvironment env = runtime.env();
            try (OnnxWeights weights = new OnnxWeights(reader, env, precision.quantized());
                    OrtSession.SessionOptions options = runtime.options()) {
                byte[] graph = OnnxDecoderGraph.build(config, weights, OnnxModelRunner.ropePositions(config), lora,
                        precision);
                options.addExternalInitializers(weights.initializers());
                if (weights.folder() != null) {
                    options.addConfigEntry("session.model_external_initializers_file_folder_path",
                            weights.folder().toString());
                }
                OrtSession session = env.createSession(graph, options);
                try {
                    return new OnnxSession(env, session, lora ? new OnnxLoraInputs(config, env) : null,
                            config.numHiddenLayers(), config.vocabSize());
                } catch (OrtException | RuntimeException e) {
                    session.close();
                    throw e;
                }
            }
        } catch (EngineException e) {
            throw new EngineException(e.reason(), where(model) + e.getMessage(), e);
        } catch (ModelFormatException e) {
            EngineException.Reason reason = e.getMessage().contains("unsupported dtype")
                    ? EngineException.Reason.UNSUPPORTED_DTYPE : EngineException.Reason.INVALID_MODEL;
            throw new EngineException(reason, where(model) + e.getMessage(), e);
        } catch (IOException e) {
            throw new EngineException(EngineException.Reason.INVALID_MODEL, where(model) + e, e);
        } catch (OrtException e) {
            throw new EngineException(EngineException.Reason.RUNTIME_UNAVAILABLE, where(model)
                    + "ONNX Runtime refused the decoder graph: " + e.getMessage(), e);
        }
    }

    private static String where(ModelFolder model) {
        return "cannot load " + model.dir() + ": ";
    }
}
