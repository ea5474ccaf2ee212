package dev.crucible.engine.spi;

import dev.crucible.hf.folder.ModelFolder;
import java.util.Set;

/**
 * An engine plugin, found with {@link java.util.ServiceLoader} through one {@code META-INF/services} line.
 *
 * <p>Contract: construction is cheap and side-effect free (no native loading, no network); {@link #name()} is a
 * stable lower-case identifier the configuration can name; {@link #capabilities()} is fixed for the life of the
 * process. Implementations are thread-safe.
 */
public interface EngineProvider {

    /** Stable identifier, e.g. {@code djl}; unique among installed providers. */
    String name();

    /**
     * Where this engine stands when no engine is configured: the installed engines that can run inference are tried
     * in ascending rank for each model (the next one when an engine refuses it), and training runs on the
     * lowest-ranked engine that can train. Ties go by {@link #name()}. Fixed for the life of the process; the
     * default, {@link Integer#MAX_VALUE}, puts an engine after every engine that declares a rank. The bundled
     * engines: {@code onnx} 10 (ONNX Runtime decodes several times faster than PyTorch on the CPU), then {@code djl}
     * 20 for what onnx cannot load.
     */
    default int rank() {
        return Integer.MAX_VALUE;
    }

    /** What this engine can do on this machine; never null, may be empty when its runtime is missing. */
    Set<Capability> capabilities();

    /**
     * Checks that the engine is usable now.
     *
     * @return the health; {@link EngineHealth#healthy()} when usable
     */
    EngineHealth health();

    /**
     * Loads a model for inference; only engines with {@link Capability#INFERENCE} implement it. May take seconds
     * (weights are read, the native runtime starts on first use); safe to call from several threads, each call giving
     * its own runner, which the caller owns and closes.
     *
     * @param model a model folder whose configuration hf-format has read and checked; never null
     * @return the loaded model, ready for {@link ModelRunner#forward}
     * @throws EngineException {@link EngineException.Reason#NOT_CAPABLE} when the engine cannot run inference (the
     *                         default); {@link EngineException.Reason#UNSUPPORTED_ARCHITECTURE} or
     *                         {@link EngineException.Reason#UNSUPPORTED_DTYPE} naming the architecture or the tensor and
     *                         dtype it cannot run; {@link EngineException.Reason#INVALID_MODEL} for missing or
     *                         misshaped weights; {@link EngineException.Reason#RUNTIME_UNAVAILABLE} when the runtime
     *                         does not start
     */
    default ModelRunner loadModel(ModelFolder model) {
        throw new EngineException(EngineException.Reason.NOT_CAPABLE, "engine '" + name()
                + "' cannot run inference (capabilities: " + capabilities() + ")");
    }

    /**
     * Loads a model for inference at the {@code precision} its configuration asks for, as {@link #loadModel(ModelFolder)}
     * otherwise does. The default serves {@link Precision#F32} through {@link #loadModel(ModelFolder)} and refuses any
     * other; an engine that quantises overrides it.
     *
     * @throws EngineException {@link EngineException.Reason#UNSUPPORTED_DTYPE} when the engine cannot run that
     *                         precision, besides what {@link #loadModel(ModelFolder)} throws
     */
    default ModelRunner loadModel(ModelFolder model, Precision precision) {
        if (precision == Precision.F32) {
            return loadModel(model);
        }
        throw new EngineException(EngineException.Reason.UNSUPPORTED_DTYPE, "engine '" + name() + "' runs f32 "
                + "weights only, not " + precision.label());
    }
}
