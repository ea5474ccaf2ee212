package dev.crucible.engine.spi;

import dev.crucible.hf.safetensors.SafetensorsReader;
import dev.crucible.hf.safetensors.TensorInfo;
import java.util.Arrays;

/** The checks an engine makes of a safetensors weight before it loads it as F32, each refusal naming the tensor. */
public final class F32Weights {

    private F32Weights() {
    }

    /**
     * The tensor {@code name}, once it is known to exist with exactly {@code shape}, in a dtype the reader widens to
     * F32 (F32, F16, BF16), and under 2 GiB as F32, what one Java buffer holds.
     *
     * @param engine the engine's name, for the refusal of a dtype
     * @throws EngineException {@link EngineException.Reason#INVALID_MODEL} for a missing, misshaped or too large
     *                         tensor; {@link EngineException.Reason#UNSUPPORTED_DTYPE} for another dtype
     */
    public static TensorInfo check(SafetensorsReader reader, String engine, String name, long... shape) {
        TensorInfo info = checkShape(reader, engine, name, shape);
        if (info.elementCount() > Integer.MAX_VALUE / Float.BYTES) {
            throw new EngineException(EngineException.Reason.INVALID_MODEL, "tensor '" + name + "' is 2 GiB or more "
                    + "as F32, more than one Java buffer holds");
        }
        return info;
    }

    /**
     * {@link #check} without the size limit, for a weight the engine never holds as one F32 buffer (one it loads in
     * parts, quantises row by row, or hands to its runtime as the file's own bytes).
     *
     * @throws EngineException as {@link #check}, except for the size
     */
    public static TensorInfo checkShape(SafetensorsReader reader, String engine, String name, long... shape) {
        if (!reader.contains(name)) {
            throw new EngineException(EngineException.Reason.INVALID_MODEL, "missing tensor '" + name + "'");
        }
        TensorInfo info = reader.info(name);
        if (!info.dtype().hasF32View()) {
            throw new EngineException(EngineException.Reason.UNSUPPORTED_DTYPE, "tensor '" + name + "' has dtype "
                    + info.dtype() + ", which the " + engine + " engine does not load (supported: F32, F16, BF16)");
        }
        if (!Arrays.equals(info.dims(), shape)) {
            throw new EngineException(EngineException.Reason.INVALID_MODEL, "tensor '" + name + "' has shape "
                    + info.shape() + ", expected " + Arrays.toString(shape) + " from config.json");
        }
        return info;
    }
}
