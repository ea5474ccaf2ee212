package dev.crucible.adapters.http.tinker.proto;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Raw little-endian arrays, as NumPy's {@code tobytes()} writes them on the SDK's side. Readers take a byte string
 * whose length the caller has checked to be a multiple of the element size; writers wrap a fresh array without a copy.
 */
final class LittleEndian {

    private LittleEndian() {
    }

    static int[] int32s(ByteString bytes) {
        int[] values = new int[bytes.size() / Integer.BYTES];
        buffer(bytes).asIntBuffer().get(values);
        return values;
    }

    /** int32 values widened to 64 bits. */
    static long[] int32sAsLongs(ByteString bytes) {
        int[] narrow = int32s(bytes);
        long[] values = new long[narrow.length];
        for (int i = 0; i < narrow.length; i++) {
            values[i] = narrow[i];
        }
        return values;
    }

    static long[] int64s(ByteString bytes) {
        long[] values = new long[bytes.size() / Long.BYTES];
        buffer(bytes).asLongBuffer().get(values);
        return values;
    }

    static float[] float32s(ByteString bytes) {
        float[] values = new float[bytes.size() / Float.BYTES];
        buffer(bytes).asFloatBuffer().get(values);
        return values;
    }

    /** bfloat16 values widened to float32: a bfloat16 is the upper half of a float32's bits, so this is exact. */
    static float[] bfloat16sAsFloats(ByteString bytes) {
        short[] halves = new short[bytes.size() / Short.BYTES];
        buffer(bytes).asShortBuffer().get(halves);
        float[] values = new float[halves.length];
        for (int i = 0; i < halves.length; i++) {
            values[i] = Float.intBitsToFloat((halves[i] & 0xFFFF) << 16);
        }
        return values;
    }

    static ByteString of(int[] values) {
        ByteBuffer out = allocate(values.length, Integer.BYTES);
        out.asIntBuffer().put(values);
        return wrap(out);
    }

    static ByteString of(long[] values) {
        ByteBuffer out = allocate(values.length, Long.BYTES);
        out.asLongBuffer().put(values);
        return wrap(out);
    }

    static ByteString of(float[] values) {
        ByteBuffer out = allocate(values.length, Float.BYTES);
        out.asFloatBuffer().put(values);
        return wrap(out);
    }

    private static ByteBuffer buffer(ByteString bytes) {
        return bytes.asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
    }

    private static ByteBuffer allocate(int count, int width) {
        return ByteBuffer.allocate(Math.multiplyExact(count, width)).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** The buffer's array becomes the byte string's: nothing else holds it, so the wrap is safe. */
    private static ByteString wrap(ByteBuffer out) {
        return UnsafeByteOperations.unsafeWrap(out.array());
    }
}
