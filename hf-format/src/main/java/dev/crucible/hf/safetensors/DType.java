package dev.crucible.hf.safetensors;

import dev.crucible.hf.ModelFormatException;
import java.util.Arrays;
import java.util.stream.Collectors;

/** The element types a safetensors header may name, with their size in bytes. */
public enum DType {
    F64(8), F32(4), F16(2), BF16(2), I64(8), I32(4), I16(2), I8(1), U64(8), U32(4), U16(2), U8(1), BOOL(1);

    private final int bytes;

    DType(int bytes) {
        this.bytes = bytes;
    }

    /** Bytes per element. */
    public int bytes() {
        return bytes;
    }

    /** Whether the reader offers a little-endian F32 view of such a tensor (F32 as is, F16 and BF16 widened). */
    public boolean hasF32View() {
        return this == F32 || this == F16 || this == BF16;
    }

    /** The dtype of a header's {@code dtype} string; an unknown one (e.g. {@code F8_E4M3}) fails naming it. */
    public static DType fromName(String name) {
        for (DType d : values()) {
            if (d.name().equals(name)) {
                return d;
            }
        }
        throw new ModelFormatException("unsupported dtype '" + name + "' (supported: "
                + Arrays.stream(values()).map(Enum::name).collect(Collectors.joining(", ")) + ")");
    }
}
