package dev.crucible.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a GGUF v3 file with F32 tensors: the magic, version 3, the tensor and key/value counts, the key/value pairs,
 * the tensor infos (dimensions reversed, so an {@code [out, in]} row-major buffer is written as it is), padding to
 * the alignment, then the data with each tensor padded to the alignment. Not thread-safe; the arrays passed in are
 * kept, not copied, until {@link #write}.
 */
final class GgufWriter {

    static final int ALIGNMENT = 32;

    private static final int TYPE_U32 = 4;
    private static final int TYPE_I32 = 5;
    private static final int TYPE_F32 = 6;
    private static final int TYPE_BOOL = 7;
    private static final int TYPE_STRING = 8;
    private static final int TYPE_ARRAY = 9;
    private static final int GGML_TYPE_F32 = 0;
    private static final int GGML_TYPE_Q4_0 = 2;
    /** Q4_0: blocks of 32 weights, each an F16 scale and 16 bytes of 4-bit values. */
    private static final int Q4_0_BLOCK = 32;
    private static final int Q4_0_BYTES = 18;

    private record Tensor(String name, long[] shape, float[] values) {
    }

    private final Buffer meta = new Buffer();
    private final List<Tensor> tensors = new ArrayList<>();
    private long kvCount;

    GgufWriter u32(String key, long value) {
        key(key, TYPE_U32).putInt((int) value);
        return this;
    }

    GgufWriter f32(String key, float value) {
        key(key, TYPE_F32).putFloat(value);
        return this;
    }

    GgufWriter bool(String key, boolean value) {
        key(key, TYPE_BOOL).put((byte) (value ? 1 : 0));
        return this;
    }

    GgufWriter string(String key, String value) {
        key(key, TYPE_STRING).putString(value);
        return this;
    }

    GgufWriter strings(String key, List<String> values) {
        key(key, TYPE_ARRAY).putInt(TYPE_STRING).putLong(values.size());
        values.forEach(meta::putString);
        return this;
    }

    GgufWriter i32s(String key, int[] values) {
        key(key, TYPE_ARRAY).putInt(TYPE_I32).putLong(values.length);
        for (int v : values) {
            meta.putInt(v);
        }
        return this;
    }

    /** Adds an F32 tensor; {@code shape} is in row-major (PyTorch) order, {@code values} row-major. */
    GgufWriter tensor(String name, long[] shape, float[] values) {
        tensors.add(new Tensor(name, shape.clone(), values));
        return this;
    }

    /** Writes the file (replacing any) with F32 tensors and returns its size in bytes. */
    long write(Path file) throws IOException {
        return write(file, false);
    }

    /** Whether a tensor is written as Q4_0 in a quantised file: every matrix whose rows are whole blocks. */
    private static boolean quantised(Tensor t, boolean q4) {
        return q4 && t.shape().length == 2 && t.shape()[1] % Q4_0_BLOCK == 0;
    }

    private static long bytes(Tensor t, boolean q4) {
        return quantised(t, q4) ? (long) t.values().length / Q4_0_BLOCK * Q4_0_BYTES : 4L * t.values().length;
    }

    /**
     * Writes the file (replacing any) and returns its size in bytes; with {@code q4}, every matrix is quantised to
     * ggml's Q4_0 ({@code quantize_row_q4_0_ref}: per block of 32, the scale is the value of largest magnitude over
     * -8, each weight rounded to 4 bits), vectors (norms, biases) stay F32, as llama.cpp's "pure" Q4_0 files are.
     */
    long write(Path file, boolean q4) throws IOException {
        Buffer head = new Buffer();
        head.putBytes("GGUF".getBytes(StandardCharsets.US_ASCII)).putInt(3).putLong(tensors.size()).putLong(kvCount);
        head.putBytes(meta.bytes());
        long offset = 0;
        for (Tensor t : tensors) {
            head.putString(t.name()).putInt(t.shape().length);
            for (int i = t.shape().length - 1; i >= 0; i--) {
                head.putLong(t.shape()[i]);
            }
            head.putInt(quantised(t, q4) ? GGML_TYPE_Q4_0 : GGML_TYPE_F32).putLong(offset);
            offset = align(offset + bytes(t, q4));
        }
        while (head.size() % ALIGNMENT != 0) {
            head.put((byte) 0);
        }
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            writeFully(out, ByteBuffer.wrap(head.bytes()));
            ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
            for (Tensor t : tensors) {
                if (quantised(t, q4)) {
                    float[] v = t.values();
                    for (int block = 0; block < v.length; block += Q4_0_BLOCK) {
                        if (buf.remaining() < Q4_0_BYTES) {
                            drain(out, buf);
                        }
                        q4Block(v, block, buf);
                    }
                } else {
                    for (float v : t.values()) {
                        if (!buf.hasRemaining()) {
                            drain(out, buf);
                        }
                        buf.putFloat(v);
                    }
                }
                long pad = align(bytes(t, q4)) - bytes(t, q4);
                for (long i = 0; i < pad; i++) {
                    if (!buf.hasRemaining()) {
                        drain(out, buf);
                    }
                    buf.put((byte) 0);
                }
            }
            drain(out, buf);
            return out.size();
        }
    }

    /** One Q4_0 block of {@code v[from..from+32)}: the F16 scale, then low nibbles for 0..15, high for 16..31. */
    private static void q4Block(float[] v, int from, ByteBuffer buf) {
        float amax = 0;
        float max = 0;
        for (int j = 0; j < Q4_0_BLOCK; j++) {
            float x = v[from + j];
            if (Math.abs(x) > amax) {
                amax = Math.abs(x);
                max = x;
            }
        }
        float d = max / -8;
        float id = d != 0 ? 1 / d : 0;
        buf.putShort(Float.floatToFloat16(d));
        for (int j = 0; j < Q4_0_BLOCK / 2; j++) {
            int lo = Math.min(15, (int) (v[from + j] * id + 8.5f));
            int hi = Math.min(15, (int) (v[from + Q4_0_BLOCK / 2 + j] * id + 8.5f));
            buf.put((byte) (lo | hi << 4));
        }
    }

    private Buffer key(String key, int type) {
        kvCount++;
        return meta.putString(key).putInt(type);
    }

    private static long align(long n) {
        return (n + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
    }

    private static void drain(FileChannel out, ByteBuffer buf) throws IOException {
        buf.flip();
        writeFully(out, buf);
        buf.clear();
    }

    private static void writeFully(FileChannel out, ByteBuffer bytes) throws IOException {
        while (bytes.hasRemaining()) {
            out.write(bytes);
        }
    }

    /** A growable little-endian byte buffer for the header. */
    private static final class Buffer {
        private ByteBuffer buf = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);

        private Buffer room(int n) {
            if (buf.remaining() < n) {
                ByteBuffer bigger = ByteBuffer.allocate(Math.max(buf.capacity() * 2, buf.position() + n))
                        .order(ByteOrder.LITTLE_ENDIAN);
                buf.flip();
                bigger.put(buf);
                buf = bigger;
            }
            return this;
        }

        Buffer put(byte b) {
            room(1).buf.put(b);
            return this;
        }

        Buffer putInt(int v) {
            room(4).buf.putInt(v);
            return this;
        }

        Buffer putLong(long v) {
            room(8).buf.putLong(v);
            return this;
        }

        Buffer putFloat(float v) {
            room(4).buf.putFloat(v);
            return this;
        }

        Buffer putBytes(byte[] b) {
            room(b.length).buf.put(b);
            return this;
        }

        Buffer putString(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            return putLong(b.length).putBytes(b);
        }

        int size() {
            return buf.position();
        }

        byte[] bytes() {
            byte[] out = new byte[buf.position()];
            buf.duplicate().flip().get(out);
            return out;
        }
    }
}
