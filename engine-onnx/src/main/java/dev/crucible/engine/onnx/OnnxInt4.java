package dev.crucible.engine.onnx;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.stream.IntStream;

/**
 * Symmetric 4-bit block quantisation of a linear weight {@code W [n, k]} (Hugging Face's {@code [out, in]}) in the
 * layout {@code com.microsoft:MatMulNBits} reads (shared/reference/onnx-decoder.md section 3): per output row and
 * block of 32 inputs one float scale {@code max|w| / 7}, and values {@code q = clamp(round(w / scale), -8, 7) + 8}
 * packed two to a byte, the even position in the low nibble; the op's default zero point 8 recovers
 * {@code (q - 8) * scale}. A last, partial block is padded with zeros. Immutable once made.
 *
 * @param packed row-major {@code [n, blocks, 16]}
 * @param scales row-major {@code [n, blocks]}
 */
record OnnxInt4(byte[] packed, float[] scales, int n, int k) {

    static final int BLOCK = 32;
    private static final ValueLayout.OfFloat F32_LE =
            ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** The blocks per row: {@code ceil(k / 32)}. */
    int blocks() {
        return blocksOf(k);
    }

    static int blocksOf(int k) {
        return (k + BLOCK - 1) / BLOCK;
    }

    /** Quantises {@code weights}, little-endian F32 {@code [n, k]}; rows in parallel. */
    static OnnxInt4 quantize(MemorySegment weights, int n, int k) {
        int blocks = blocksOf(k);
        byte[] packed = new byte[n * blocks * BLOCK / 2];
        float[] scales = new float[n * blocks];
        IntStream.range(0, n).parallel().forEach(row -> {
            float[] values = new float[BLOCK];
            for (int b = 0; b < blocks; b++) {
                float max = 0;
                for (int j = 0; j < BLOCK; j++) {
                    int col = b * BLOCK + j;
                    values[j] = col < k ? weights.getAtIndex(F32_LE, (long) row * k + col) : 0f;
                    max = Math.max(max, Math.abs(values[j]));
                }
                float scale = max / 7f;
                float inverse = scale == 0 ? 0 : 1 / scale;
                scales[row * blocks + b] = scale;
                int base = (row * blocks + b) * BLOCK / 2;
                for (int j = 0; j < BLOCK; j += 2) {
                    packed[base + j / 2] = (byte) (level(values[j], inverse) | level(values[j + 1], inverse) << 4);
                }
            }
        });
        return new OnnxInt4(packed, scales, n, k);
    }

    private static int level(float w, float inverse) {
        return Math.clamp(Math.round(w * inverse), -8, 7) + 8;
    }

    /** What MatMulNBits computes with: {@code (q - 8) * scale}, row-major {@code [n, k]}. */
    float[] dequantize() {
        int blocks = blocks();
        float[] out = new float[n * k];
        for (int row = 0; row < n; row++) {
            for (int col = 0; col < k; col++) {
                int b = col / BLOCK;
                int j = col % BLOCK;
                int nibbles = packed[(row * blocks + b) * BLOCK / 2 + j / 2] & 0xff;
                int q = (j % 2 == 0 ? nibbles : nibbles >>> 4) & 0x0f;
                out[row * k + col] = (q - 8) * scales[row * blocks + b];
            }
        }
        return out;
    }
}
