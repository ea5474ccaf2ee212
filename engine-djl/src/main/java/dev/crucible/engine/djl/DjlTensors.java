package dev.crucible.engine.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import dev.crucible.engine.spi.EngineException;
import dev.crucible.hf.safetensors.SafetensorsReader;
import dev.crucible.hf.safetensors.TensorInfo;
import java.util.Arrays;

/**
 * Turns safetensors weights into F32 NDArrays, checking each tensor's dtype and shape first. F32 tensors are wrapped
 * zero-copy (on the CPU, PyTorch reads the read-only file mapping directly, so the reader must stay open while the
 * arrays live and nothing may write to them); F16 and BF16 are widened to F32 by the reader once, since PyTorch on the
 * CPU crashes on BF16 and crawls on F16. Not thread-safe; used while loading.
 */
final class DjlTensors {

    private final SafetensorsReader reader;
    private final NDManager manager;

    DjlTensors(SafetensorsReader reader, NDManager manager) {
        this.reader = reader;
        this.manager = manager;
    }

    /** The tensor {@code name}, which must exist with exactly {@code shape}. */
    NDArray load(String name, long... shape) {
        if (!reader.contains(name)) {
            throw new EngineException(EngineException.Reason.INVALID_MODEL, "missing tensor '" + name + "'");
        }
        TensorInfo info = reader.info(name);
        if (!info.dtype().hasF32View()) {
            throw new EngineException(EngineException.Reason.UNSUPPORTED_DTYPE, "tensor '" + name + "' has dtype "
                    + info.dtype() + ", which the djl engine does not load (supported: F32, F16, BF16)");
        }
        if (!Arrays.equals(info.dims(), shape)) {
            throw new EngineException(EngineException.Reason.INVALID_MODEL, "tensor '" + name + "' has shape "
                    + info.shape() + ", expected " + Arrays.toString(shape) + " from config.json");
        }
        if (info.elementCount() > Integer.MAX_VALUE / Float.BYTES) {
            throw new EngineException(EngineException.Reason.INVALID_MODEL, "tensor '" + name + "' is 2 GiB or more "
                    + "as F32, more than one DJL buffer holds");
        }
        NDArray array = manager.create(reader.f32Buffer(name), new Shape(shape), DataType.FLOAT32);
        array.setName(name);
        return array;
    }

    /** {@link #load} when {@code present}, else null (an absent bias). */
    NDArray loadIf(boolean present, String name, long... shape) {
        return present ? load(name, shape) : null;
    }
}
