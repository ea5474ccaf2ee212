package dev.crucible.hf.safetensors;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where a tensor's stored bytes are in its file: what a runtime that maps files itself (ONNX Runtime's external data)
 * needs to read the tensor without a copy. Immutable.
 *
 * @param file   the safetensors file holding the tensor
 * @param offset the byte offset of the tensor's first byte from the start of the file (header included)
 * @param length the tensor's stored size in bytes
 */
public record TensorLocation(Path file, long offset, long length) {

    /** Rejects a null file and negative numbers. */
    public TensorLocation {
        Objects.requireNonNull(file, "file");
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("offset and length must be non-negative, got " + offset + " and "
                    + length);
        }
    }
}
