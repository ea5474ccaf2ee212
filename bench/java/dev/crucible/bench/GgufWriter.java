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
 * Writes a GGUF v3 file with F32, Q4_0 or Q8_0 tensors: the magic, version 3, the tensor and key/value counts, the key/value pairs,
 * the tensor infos (dimensions reversed, so an {@code [out, in]} row-major buffer is written as it is), padding to
 * the alignment, then the data with each tensor padded to the alignment. A tensor's values come from a source read
 * when the file is written (an array, or a model's file read row by row), so a model larger than memory streams
 * through. Not thread-safe; the arrays passed in are kept, not copied, until {@link #write}.
 */
final class GgufWriter {

    static final int ALIGNMENT = 32;

    private static final int TYPE_U32 = 4;
    private static final int TYPE_I32 = 5;
    private static final int TYPE_F32 = 6;
    private static final int TYPE_BOOL = 7;
    private static final int TYPE_STRING = 8;
    private static final int TYPE_ARRAY = 9;
    /** ggml's block formats: 32 weights per block, an F16 scale and the values (Q4_0 4 bits, Q8_0 8 bits). */
    private static final int BLOCK = 32;

    /** How the file stores its matrices: every one F32, or ggml's Q4_0 or Q8_0 (vectors stay F32). */
    enum Type {
        F32(0, 0), Q4_0(2, 18), Q8_0(8, 34);

        final int ggml;
        final int blockBytes;

        Type(int ggml, int blockBytes) {
            this.ggml = ggml;
            this.blockBytes = blockBytes;
        }
    }

    /** Where a tensor's values come from: {@code into.length} values from element {@code from} on, row-major. */
    @FunctionalInterface
    interface Values {
        void read(long from, float[] into);
    }

    private record Tensor(String name, long[] shape, Values values) {

        long count() {
            long n = 1;
            for (long d : shape) {
                n *= d;
            }
            return n;
        }
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

    /** Adds a tensor; {@code shape} is in row-major (PyTorch) order, {@code values} row-major. */
    GgufWriter tensor(String name, long[] shape, float[] values) {
        return tensor(name, shape, (from, into) -> System.arraycopy(values, (int) from, into, 0, into.length));
    }

    /** Adds a tensor whose values are read from {@code values} while the file is written. */
    GgufWriter tensor(String name, long[] shape, Values values) {
        tensors.add(new Tensor(name, shape.clone(), values));
        return this;
    }

    /** Writes the file (replacing any) with F32 tensors and returns its size in bytes. */
    long write(Path file) throws IOException {
        return write(file, Type.F32);
    }

    /** Whether a tensor is quantised in a file of {@code type}: every matrix whose rows are whole blocks. */
    private static boolean quantised(Tensor t, Type type) {
        return type != Type.F32 && t.shape().length == 2 && t.shape()[1] % BLOCK == 0;
    }

    private static long bytes(Tensor t, Type type) {
        return quantised(t, type) ? t.count() / BLOCK * type.blockBytes : 4L * t.count();
    }

    /**
     * Writes the file (replacing any) and returns its size in bytes; at Q4_0 or Q8_0 every matrix is quantised as
     * ggml's reference quantisers do ({@code quantize_row_q4_0_ref}: per block of 32, the scale is the value of
     * largest magnitude over -8, each weight rounded to 4 bits; {@code quantize_row_q8_0_ref}: the scale is the
     * largest magnitude over 127, each weight rounded to 8 bits), vectors (norms, biases) stay F32, as llama.cpp's
     * "pure" files are.
     */
    long write(Path file, Type type) throws IOException {
        Buffer head = new Buffer();
        head.putBytes("GGUF".getBytes(StandardCharsets.US_ASCII)).putInt(3).putLong(tensors.size()).putLong(kvCount);
        head.putBytes(meta.bytes());
        long offset = 0;
        for (Tensor t : tensors) {
            head.putString(t.name()).putInt(t.shape().length);
            for (int i = t.shape().length - 1; i >= 0; i--) {
                head.putLong(t.shape()[i]);
            }
            head.putInt(quantised(t, type) ? type.ggml : Type.F32.ggml).putLong(offset);
            offset = align(offset + bytes(t, type));
        }
        while (head.size() % ALIGNMENT != 0) {
            head.put((byte) 0);
        }
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            writeFully(out, ByteBuffer.wrap(head.bytes()));
            ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
            for (Tensor t : tensors) {
                boolean q = quantised(t, type);
                float[] chunk = new float[BLOCK * 1024];
                for (long from = 0; from < t.count(); from += chunk.length) {
                    if (t.count() - from < chunk.length) {
                        chunk = new float[(int) (t.count() - from)];
                    }
                    t.values().read(from, chunk);
                    for (int i = 0; i < chunk.length; i += q ? BLOCK : 1) {
                        if (buf.remaining() < type.blockBytes + Float.BYTES) {
                            drain(out, buf);
                        }
                        if (!q) {
                            buf.putFloat(chunk[i]);
                        } else if (type == Type.Q4_0) {
                            q4Block(chunk, i, buf);
                        } else {
                            q8Block(chunk, i, buf);
                        }
                    }
                }
                long pad = align(bytes(t, type)) - bytes(t, type);
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
        for (int j = 0; j < BLOCK; j++) {
            float x = v[from + j];
            if (Math.abs(x) > amax) {
                amax = Math.abs(x);
                max = x;
            }
        }
        float d = max / -8;
        float id = d != 0 ? 1 / d : 0;
        buf.putShort(Float.floatToFloat16(d));
        for (int j = 0; j < BLOCK / 2; j++) {
            int lo = Math.min(15, (int) (v[from + j] * id + 8.5f));
            int hi = Math.min(15, (int) (v[from + BLOCK / 2 + j] * id + 8.5f));
            buf.put((byte) (lo | hi << 4));
        }
    }

    /** One Q8_0 block of {@code v[from..from+32)}: the F16 scale {@code max|v| / 127}, then 32 signed bytes. */
    private static void q8Block(float[] v, int from, ByteBuffer buf) {
        float amax = 0;
        for (int j = 0; j < BLOCK; j++) {
            amax = Math.max(amax, Math.abs(v[from + j]));
        }
        float d = amax / 127;
        float id = d != 0 ? 1 / d : 0;
        buf.putShort(Float.floatToFloat16(d));
        for (int j = 0; j < BLOCK; j++) {
            float x = v[from + j] * id;
            buf.put((byte) (x < 0 ? -Math.round(-x) : Math.round(x))); // roundf: halves away from zero
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
