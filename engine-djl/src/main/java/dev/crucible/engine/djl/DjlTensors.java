package dev.crucible.engine.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import dev.crucible.engine.spi.F32Weights;
import dev.crucible.hf.safetensors.SafetensorsReader;

/**
 * Turns safetensors weights into F32 NDArrays, checking each tensor's dtype and shape first. F32 tensors are wrapped
 * zero-copy (on the CPU, PyTorch reads the read-only file mapping directly, so the reader must stay open while the
 * arrays live and nothing may write to them); F16 and BF16 are widened to F32 by the reader once, since PyTorch on the
 * CPU crashes on BF16 and crawls on F16. Not thread-safe; used while loading.
 */
record DjlTensors(SafetensorsReader reader, NDManager manager) {

    /** The tensor {@code name}, which must exist with exactly {@code shape}. */
    NDArray load(String name, long... shape) {
        F32Weights.check(reader, "djl", name, shape);
        NDArray array = manager.create(reader.f32Buffer(name), new Shape(shape), DataType.FLOAT32);
        array.setName(name);
        return array;
    }

    /** {@link #load} when {@code present}, else null (an absent bias). */
    NDArray loadIf(boolean present, String name, long... shape) {
        return present ? load(name, shape) : null;
    }
}
