package dev.crucible.engine.onnx;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OnnxTensorLike;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import dev.crucible.engine.spi.EngineException;
import dev.crucible.hf.safetensors.SafetensorsReader;
import dev.crucible.hf.safetensors.TensorInfo;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The weights a decoder graph uses, checked and handed to ONNX Runtime. Each tensor is declared in the graph as
 * external data and supplied as an {@link OnnxTensor} wrapping the reader's little-endian F32 view: the mapped file
 * itself for F32 weights, the reader's widened copy for F16 and BF16. ONNX Runtime copies every supplied initializer
 * into its own memory while the session is created (shared/reference/onnx-decoder.md section 7), so the tensors and the
 * reader may be closed once the session exists. Not thread-safe; used while loading.
 */
final class OnnxWeights implements AutoCloseable {

    private final SafetensorsReader reader;
    private final OrtEnvironment env;
    private final Map<String, OnnxTensor> supplied = new LinkedHashMap<>();

    OnnxWeights(SafetensorsReader reader, OrtEnvironment env) {
        this.reader = reader;
        this.env = env;
    }

    /**
     * Declares {@code name} in {@code graph}, once however often it is used, and returns the name to wire.
     *
     * @throws EngineException {@link EngineException.Reason#INVALID_MODEL} for a missing or misshaped tensor,
     *                         {@link EngineException.Reason#UNSUPPORTED_DTYPE} for a dtype without an F32 view
     */
    String use(OnnxGraph graph, String name, long... shape) {
        if (supplied.containsKey(name)) {
            return name;
        }
        if (!reader.contains(name)) {
            throw new EngineException(EngineException.Reason.INVALID_MODEL, "missing tensor '" + name + "'");
        }
        TensorInfo info = reader.info(name);
        if (!info.dtype().hasF32View()) {
            throw new EngineException(EngineException.Reason.UNSUPPORTED_DTYPE, "tensor '" + name + "' has dtype "
                    + info.dtype() + ", which the onnx engine does not load (supported: F32, F16, BF16)");
        }
        if (!Arrays.equals(info.dims(), shape)) {
            throw new EngineException(EngineException.Reason.INVALID_MODEL, "tensor '" + name + "' has shape "
                    + info.shape() + ", expected " + Arrays.toString(shape) + " from config.json");
        }
        if (info.elementCount() > Integer.MAX_VALUE / Float.BYTES) {
            throw new EngineException(EngineException.Reason.INVALID_MODEL, "tensor '" + name + "' is 2 GiB or more "
                    + "as F32, more than one Java buffer holds");
        }
        try {
            supplied.put(name, OnnxTensor.createTensor(env, reader.f32Buffer(name).asFloatBuffer(), shape));
        } catch (OrtException e) {
            throw new EngineException(EngineException.Reason.RUNTIME_UNAVAILABLE, "cannot wrap tensor '" + name
                    + "' for ONNX Runtime: " + e.getMessage(), e);
        }
        graph.externalWeight(name, shape);
        return name;
    }

    /** {@link #use} when {@code present}, else null (an absent bias or norm). */
    String useIf(boolean present, OnnxGraph graph, String name, long... shape) {
        return present ? use(graph, name, shape) : null;
    }

    /** The tensors to pass to {@code SessionOptions.addExternalInitializers}; valid until {@link #close()}. */
    Map<String, OnnxTensorLike> initializers() {
        return Map.copyOf(supplied);
    }

    /** Frees the wrappers (not the reader). */
    @Override
    public void close() {
        supplied.values().forEach(OnnxTensor::close);
        supplied.clear();
    }
}
