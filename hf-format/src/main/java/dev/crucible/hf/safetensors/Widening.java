package dev.crucible.hf.safetensors;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/** Conversions between F32 and the 16-bit float formats, element by element, little-endian throughout. */
final class Widening {

    static final ValueLayout.OfFloat F32_LE = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfShort I16_LE = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private Widening() {
    }

    /** A new F32 segment in {@code arena} holding the widened values of a BF16 or F16 segment. */
    static MemorySegment toF32(MemorySegment src, DType dtype, Arena arena) {
        long n = src.byteSize() / 2;
        MemorySegment dst = arena.allocate(n * 4, 64);
        for (long i = 0; i < n; i++) {
            short bits = src.get(I16_LE, 2 * i);
            dst.set(F32_LE, 4 * i, dtype == DType.BF16 ? bf16ToFloat(bits) : Float.float16ToFloat(bits));
        }
        return dst;
    }

    /** BF16 is the upper half of an F32: widening shifts the bits into place, exactly. */
    static float bf16ToFloat(short bits) {
        return Float.intBitsToFloat((bits & 0xFFFF) << 16);
    }

    /** Narrows to BF16 rounding to nearest, ties to even; NaN stays a (quiet) NaN. */
    static short floatToBf16(float f) {
        if (Float.isNaN(f)) {
            return (short) 0x7FC0;
        }
        int bits = Float.floatToRawIntBits(f);
        return (short) ((bits + 0x7FFF + ((bits >>> 16) & 1)) >>> 16);
    }
}
