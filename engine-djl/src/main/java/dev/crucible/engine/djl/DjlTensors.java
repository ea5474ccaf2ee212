package dev.crucible.engine.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import dev.crucible.engine.spi.F32Weights;
import dev.crucible.hf.safetensors.SafetensorsReader;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns safetensors weights into F32 NDArrays, checking each tensor's dtype and shape first. F32 tensors are wrapped
 * zero-copy (on the CPU, PyTorch reads the read-only file mapping directly, so the reader must stay open while the
 * arrays live and nothing may write to them); F16 and BF16 are widened to F32 by the reader once, since PyTorch on the
 * CPU crashes on BF16 and crawls on F16. A matrix of 2 GiB or more loads in parts of whole rows ({@link #loadRows}),
 * each at most {@code maxPartBytes}. Not thread-safe; used while loading.
 */
record DjlTensors(SafetensorsReader reader, NDManager manager, long maxPartBytes) {

    /** The most bytes one array made from a Java buffer can have: 2 GiB less one element. */
    static final long BUFFER_LIMIT = Integer.MAX_VALUE / Float.BYTES * (long) Float.BYTES;

    DjlTensors(SafetensorsReader reader, NDManager manager) {
        this(reader, manager, BUFFER_LIMIT);
    }

    DjlTensors {
        if (maxPartBytes < Float.BYTES || maxPartBytes > BUFFER_LIMIT) {
            throw new IllegalArgumentException("maxPartBytes must be in [4, " + BUFFER_LIMIT + "], got "
                    + maxPartBytes);
        }
    }

    /** The tensor {@code name}, which must exist with exactly {@code shape}. */
    NDArray load(String name, long... shape) {
        F32Weights.check(reader, "djl", name, shape);
        NDArray array = manager.create(reader.f32Buffer(name), new Shape(shape), DataType.FLOAT32);
        array.setName(name);
        return array;
    }

    /**
     * The matrix {@code name}, which must exist with exactly {@code [rows, columns]}, as parts of whole rows of at most
     * {@link #maxPartBytes} each, each wrapping its slice of the mapping: one part unless it is that large.
     */
    DjlRowParts loadRows(String name, long rows, long columns) {
        F32Weights.checkShape(reader, "djl", name, rows, columns);
        long rowBytes = columns * Float.BYTES;
        long perPart = Math.max(1, maxPartBytes / rowBytes);
        if (perPart * rowBytes > BUFFER_LIMIT) {
            throw new IllegalArgumentException("one row of '" + name + "' is over 2 GiB");
        }
        MemorySegment all = reader.f32(name);
        List<NDArray> parts = new ArrayList<>();
        for (long start = 0; start < rows; start += perPart) {
            long count = Math.min(perPart, rows - start);
            ByteBuffer slice = all.asSlice(start * rowBytes, count * rowBytes).asByteBuffer()
                    .order(ByteOrder.LITTLE_ENDIAN);
            NDArray part = manager.create(slice, new Shape(count, columns), DataType.FLOAT32);
            part.setName(name + (start == 0 && count == rows ? "" : "[" + start + ":" + (start + count) + "]"));
            parts.add(part);
        }
        return new DjlRowParts(parts);
    }

    /** {@link #load} when {@code present}, else null (an absent bias). */
    NDArray loadIf(boolean present, String name, long... shape) {
        return present ? load(name, shape) : null;
    }
}
