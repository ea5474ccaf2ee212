package dev.crucible.engine.onnx;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.stream.IntStream;

/**
 * Symmetric 4-bit or 8-bit block quantisation of a linear weight {@code W [n, k]} (Hugging Face's {@code [out, in]})
 * in the layout {@code com.microsoft:MatMulNBits} reads (shared/reference/onnx-decoder.md section 3): per output row
 * and block of {@code block} inputs (128 by default, the group size of GPTQ, AWQ and ONNX Runtime's own 4-bit
 * quantiser; 16 to 256 on request) one float scale, and values
 * {@code q = clamp(round(w / scale), -L-1, L) + 2^(bits-1)} with {@code L = 2^(bits-1) - 1} (7 or 127). The scale
 * starts from llama.cpp's Q4_0 and Q8_0 rule, the block's largest magnitude {@code m}, with its sign, over
 * {@code -(L+1)}, so {@code m} lands on the lowest level and all {@code 2^bits} levels are used, and is then searched
 * for the least squared error ({@link #scale}). The op's default zero point {@code 2^(bits-1)} (8 or 128) recovers
 * {@code (q - zero) * scale}. At 4 bits two values share a byte, the even position in the low nibble; at 8 bits each
 * value is a byte. A last, partial block is padded with zeros. The bytes live in native memory of the arena the
 * caller gives (ONNX Runtime reads them from there), so a large model never passes through the Java heap.
 *
 * @param bits   4 or 8
 * @param block  inputs per block: a power of two from 16 to 256, as MatMulNBits accepts
 * @param packed row-major {@code [n, blocks, block * bits / 8]}
 * @param scales row-major {@code [n, blocks]}, native-order floats
 */
record OnnxBlockQuant(int bits, int block, MemorySegment packed, MemorySegment scales, int n, int k) {

    /**
     * The default block: GPTQ's, AWQ's and ONNX Runtime's quantiser's group size. MatMulNBits' CPU kernel keeps a
     * float scale and a float block sum per block, so at 128 a 4-bit weight costs 4.5 bits, as llama.cpp's Q4_0 (blocks
     * of 32 with a half-precision scale) does, where blocks of 32 would cost 6.
     */
    static final int BLOCK = 128;

    /**
     * The shrinks of llama.cpp's scale the quantiser tries per block. On Gaussian weights in blocks of 128 they bring
     * the weights' relative RMS error from 0.103 (the rule alone) to 0.097, what blocks of 32 under the rule
     * {@code max|w| / L} gave.
     */
    private static final float[] SHRINKS = {1.0f, 0.9f, 0.8f};

    /** Where the quantiser reads a weight's rows from, widened to F32 ({@code into.length == k}). */
    @FunctionalInterface
    interface Rows {
        void row(int row, float[] into);
    }

    OnnxBlockQuant {
        if (bits != 4 && bits != 8) {
            throw new IllegalArgumentException("bits must be 4 or 8, got " + bits);
        }
        requireValidBlock(block);
    }

    /** Whether MatMulNBits takes blocks of {@code block} inputs. */
    static boolean validBlock(int block) {
        return block >= 16 && block <= 256 && Integer.bitCount(block) == 1;
    }

    /** Fails unless MatMulNBits takes blocks of {@code block} inputs ({@link #validBlock}). */
    static void requireValidBlock(int block) {
        if (!validBlock(block)) {
            throw new IllegalArgumentException("block must be a power of two from 16 to 256, got " + block);
        }
    }

    /** The blocks per row: {@code ceil(k / block)}. */
    int blocks() {
        return blocksOf(k, block);
    }

    static int blocksOf(long k, int block) {
        return (int) ((k + block - 1) / block);
    }

    /** Bytes per block of packed values: {@code block * bits / 8} (16 at 4 bits and 32 at 8 for blocks of 32). */
    static int blockBytes(int bits, int block) {
        return block * bits / 8;
    }

    /** Quantises the {@code [n, k]} weight whose rows {@code rows} gives, into {@code arena}; rows in parallel. */
    static OnnxBlockQuant quantize(Rows rows, int n, int k, int bits, int block, Arena arena) {
        int blocks = blocksOf(k, block);
        int perBlock = blockBytes(bits, block);
        MemorySegment packed = arena.allocate((long) n * blocks * perBlock);
        MemorySegment scales = arena.allocate((long) n * blocks * Float.BYTES, Float.BYTES);
        int largest = (1 << (bits - 1)) - 1;
        int zero = 1 << (bits - 1);
        // one buffer per worker thread, not per row: a 7B model has millions of rows, and a buffer per row made the
        // heap grow by hundreds of megabytes of garbage while loading
        ThreadLocal<float[][]> buffers = ThreadLocal.withInitial(() -> new float[][] {new float[blocks * block],
            new float[k]});
        IntStream.range(0, n).parallel().forEach(row -> {
            float[] values = buffers.get()[0];
            float[] read = buffers.get()[1];
            rows.row(row, read);
            System.arraycopy(read, 0, values, 0, k);
            for (int b = 0; b < blocks; b++) {
                float scale = scale(values, b * block, block, largest);
                float inverse = scale == 0 ? 0 : 1 / scale;
                scales.setAtIndex(ValueLayout.JAVA_FLOAT, (long) row * blocks + b, scale);
                long base = ((long) row * blocks + b) * perBlock;
                for (int j = 0; j < block; j += 8 / bits) {
                    int q = level(values[b * block + j], inverse, largest) + zero;
                    if (bits == 4) {
                        q |= (level(values[b * block + j + 1], inverse, largest) + zero) << 4;
                    }
                    packed.set(ValueLayout.JAVA_BYTE, base + j * bits / 8, (byte) q);
                }
            }
        });
        return new OnnxBlockQuant(bits, block, packed, scales, n, k);
    }

    /**
     * The scale of the block of {@code block} values from {@code from}: llama.cpp's Q4_0 rule, the largest magnitude
     * with its sign over {@code -(L+1)}, then shrunk by each of {@link #SHRINKS} (a smaller scale clips the extreme
     * but rounds the rest more finely), each refitted by least squares to the levels it gives
     * ({@code sum(w q) / sum(q^2)}); the one whose levels reconstruct the block with the least squared error wins.
     */
    static float scale(float[] values, int from, int block, int largest) {
        float extreme = 0;
        for (int j = from; j < from + block; j++) {
            if (Math.abs(values[j]) > Math.abs(extreme)) {
                extreme = values[j];
            }
        }
        if (extreme == 0) {
            return 0;
        }
        float best = extreme / -(largest + 1);
        double leastError = Double.POSITIVE_INFINITY;
        for (float shrink : SHRINKS) {
            float fitted = refit(values, from, block, extreme / -(largest + 1) * shrink, largest);
            double error = squaredError(values, from, block, fitted, largest);
            if (error < leastError) {
                leastError = error;
                best = fitted;
            }
        }
        return best;
    }

    /** The least-squares scale for the levels {@code scale} gives the block, or {@code scale} if they are all 0. */
    private static float refit(float[] values, int from, int block, float scale, int largest) {
        float inverse = 1 / scale;
        double wq = 0;
        double qq = 0;
        for (int j = from; j < from + block; j++) {
            int q = level(values[j], inverse, largest);
            wq += (double) values[j] * q;
            qq += (double) q * q;
        }
        float fitted = (float) (wq / qq);
        return qq == 0 || fitted == 0 || !Float.isFinite(fitted) ? scale : fitted;
    }

    private static double squaredError(float[] values, int from, int block, float scale, int largest) {
        float inverse = 1 / scale;
        double error = 0;
        for (int j = from; j < from + block; j++) {
            double d = values[j] - level(values[j], inverse, largest) * scale;
            error += d * d;
        }
        return error;
    }

    private static int level(float w, float inverse, int largest) {
        return Math.clamp(Math.round(w * inverse), -largest - 1, largest);
    }

    /** What MatMulNBits computes with: {@code (q - zero) * scale}, row-major {@code [n, k]}. */
    float[] dequantize() {
        int blocks = blocks();
        int perBlock = blockBytes(bits, block);
        int zero = 1 << (bits - 1);
        float[] out = new float[n * k];
        for (int row = 0; row < n; row++) {
            for (int col = 0; col < k; col++) {
                int b = col / block;
                int j = col % block;
                int stored = packed.get(ValueLayout.JAVA_BYTE, ((long) row * blocks + b) * perBlock
                        + (long) j * bits / 8) & 0xff;
                int q = bits == 8 ? stored : (j % 2 == 0 ? stored : stored >>> 4) & 0x0f;
                out[row * k + col] = (q - zero) * scales.getAtIndex(ValueLayout.JAVA_FLOAT, (long) row * blocks + b);
            }
        }
        return out;
    }
}
