package dev.crucible.hf.safetensors;

import java.util.List;
import java.util.Objects;

/**
 * One tensor's entry in a safetensors header: name, element type, shape (row-major, HF linear weights are
 * {@code [out, in]}) and byte offsets relative to the start of the file's data section. Immutable.
 */
public record TensorInfo(String name, DType dtype, List<Long> shape, long begin, long end) {

    /** Rejects nulls and copies the shape. */
    public TensorInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(dtype, "dtype");
        shape = List.copyOf(shape);
    }

    /** The shape as an array (a fresh copy). */
    public long[] dims() {
        return shape.stream().mapToLong(Long::longValue).toArray();
    }

    /** The number of elements: the product of the shape (1 for a scalar). */
    public long elementCount() {
        long n = 1;
        for (long d : shape) {
            n *= d;
        }
        return n;
    }

    /** The stored size in bytes. */
    public long byteSize() {
        return end - begin;
    }
}
