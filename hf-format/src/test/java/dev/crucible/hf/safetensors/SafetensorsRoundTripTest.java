package dev.crucible.hf.safetensors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.hf.ModelFormatException;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SafetensorsRoundTripTest {

    /** Values every format stores exactly: zero, signs, powers of two, a large value both 16-bit formats hold, infinities. */
    private static final float[] EXACT = {0f, -0f, 1f, -2.25f, 0.5f, 1.5f, 1f / 1024, 65280f, -3.75f, 100f,
        Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY};

    @TempDir
    Path dir;

    @Test
    void writesTheExactLayout() throws IOException {
        Path file = dir.resolve("a.safetensors");
        new SafetensorsWriter().metadata("format", "pt").add("w", DType.F32, new long[] {2}, new float[] {1f, -2f})
                .write(file);
        byte[] bytes = Files.readAllBytes(file);
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        long n = b.getLong();
        assertEquals(0, n % 8);
        String header = new String(bytes, 8, (int) n, StandardCharsets.UTF_8);
        assertEquals("{\"__metadata__\":{\"format\":\"pt\"},\"w\":{\"dtype\":\"F32\",\"shape\":[2],"
                + "\"data_offsets\":[0,8]}}", header.stripTrailing());
        assertTrue(header.substring(header.stripTrailing().length()).chars().allMatch(c -> c == ' '));
        b.position(8 + (int) n);
        assertEquals(1f, b.getFloat());
        assertEquals(-2f, b.getFloat());
        assertEquals(8 + n + 8, bytes.length);
    }

    @Test
    void readsF32AndWidensF16AndBf16ToTheSameExactValues() throws IOException {
        Path file = dir.resolve("m.safetensors");
        new SafetensorsWriter().add("f32", DType.F32, new long[] {3, 4}, EXACT)
                .add("f16", DType.F16, new long[] {3, 4}, EXACT).add("bf16", DType.BF16, new long[] {12}, EXACT)
                .write(file);
        try (SafetensorsReader r = SafetensorsReader.open(file)) {
            assertEquals(List.of("f32", "f16", "bf16"), List.copyOf(r.names()));
            assertEquals(new TensorInfo("f16", DType.F16, List.of(3L, 4L), 48, 72), r.info("f16"));
            for (String name : r.names()) {
                assertArrayEquals(EXACT, r.floats(name), name);
                assertEquals(48, r.f32(name).byteSize());
                assertEquals(-2.25f, r.f32Buffer(name).getFloat(3 * 4), name);
            }
            assertTrue(r.f32("f32").isReadOnly() && r.f32("bf16").isReadOnly());
        }
    }

    @Test
    void readsAnyRangeWidenedToF32WithoutKeepingACopy() throws IOException {
        Path file = dir.resolve("r.safetensors");
        new SafetensorsWriter().add("f32", DType.F32, new long[] {3, 4}, EXACT)
                .add("f16", DType.F16, new long[] {3, 4}, EXACT).add("bf16", DType.BF16, new long[] {12}, EXACT)
                .addRaw("ids", DType.I32, new long[] {1}, new byte[4]).write(file);
        try (SafetensorsReader r = SafetensorsReader.open(file)) {
            for (String name : List.of("f32", "f16", "bf16")) {
                float[] row = new float[4];
                r.readF32(name, 4, row);
                assertArrayEquals(java.util.Arrays.copyOfRange(EXACT, 4, 8), row, name);
            }
            assertThrows(IndexOutOfBoundsException.class, () -> r.readF32("bf16", 10, new float[4]));
            assertThrows(ModelFormatException.class, () -> r.readF32("ids", 0, new float[1]));
        }
    }

    @Test
    void narrowsToSixteenBitsRoundingToNearestEven() throws IOException {
        Path file = dir.resolve("r.safetensors");
        float halfwayBf16 = 1f + 0x1p-8f;
        float aboveHalfwayBf16 = 1f + 0x1p-8f + 0x1p-12f;
        float halfwayF16 = 1f + 0x1p-11f;
        new SafetensorsWriter().add("b", DType.BF16, new long[] {3}, new float[] {halfwayBf16, aboveHalfwayBf16,
            Float.NaN}).add("h", DType.F16, new long[] {2}, new float[] {halfwayF16, 1e6f}).write(file);
        try (SafetensorsReader r = SafetensorsReader.open(file)) {
            float[] b = r.floats("b");
            assertEquals(1f, b[0]);
            assertEquals(1f + 0x1p-7f, b[1]);
            assertTrue(Float.isNaN(b[2]));
            assertArrayEquals(new float[] {1f, Float.POSITIVE_INFINITY}, r.floats("h"));
        }
    }

    @Test
    void servesOtherDtypesRawAndRefusesTheirF32View() throws IOException {
        Path file = dir.resolve("i.safetensors");
        byte[] ids = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putLong(7).putLong(-1).array();
        new SafetensorsWriter().metadata("k", "v").addRaw("ids", DType.I64, new long[] {2}, ids).write(file);
        try (SafetensorsReader r = SafetensorsReader.open(file)) {
            assertArrayEquals(ids, r.raw("ids").toArray(ValueLayout.JAVA_BYTE));
            assertEquals(Map.of("k", "v"), r.metadata());
            var e = assertThrows(ModelFormatException.class, () -> r.f32("ids"));
            assertTrue(e.getMessage().contains("dtype I64"), e.getMessage());
            var missing = assertThrows(ModelFormatException.class, () -> r.info("nope"));
            assertTrue(missing.getMessage().contains("'nope'"), missing.getMessage());
        }
    }

    @Test
    void widensOnceWhenManyThreadsAskAtOnce() throws Exception {
        Path file = dir.resolve("t.safetensors");
        float[] values = new float[100_000];
        for (int i = 0; i < values.length; i++) {
            values[i] = i % 256;
        }
        new SafetensorsWriter().add("x", DType.BF16, new long[] {values.length}, values).write(file);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try (SafetensorsReader r = SafetensorsReader.open(file)) {
            List<Future<MemorySegment>> results = new ArrayList<>();
            for (int t = 0; t < 16; t++) {
                results.add(pool.submit(() -> r.f32("x")));
            }
            for (Future<MemorySegment> f : results) {
                assertSame(results.getFirst().get(), f.get());
            }
            assertArrayEquals(values, r.floats("x"));
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void segmentsBecomeUnusableAfterClose() throws IOException {
        Path file = dir.resolve("c.safetensors");
        new SafetensorsWriter().add("x", DType.F32, new long[] {1}, new float[] {1f}).write(file);
        SafetensorsReader r = SafetensorsReader.open(file);
        var segment = r.f32("x");
        r.close();
        assertThrows(IllegalStateException.class, () -> segment.get(ValueLayout.JAVA_BYTE, 0));
    }

    @Test
    void refusesInconsistentTensorsWhenWriting() {
        var w = new SafetensorsWriter().add("x", DType.F32, new long[] {2}, new float[2]);
        assertThrows(IllegalArgumentException.class, () -> w.add("x", DType.F32, new long[] {2}, new float[2]));
        assertThrows(IllegalArgumentException.class, () -> w.add("y", DType.F32, new long[] {3}, new float[2]));
        assertThrows(IllegalArgumentException.class, () -> w.add("z", DType.I32, new long[] {2}, new float[2]));
    }
}
