package dev.crucible.engine.onnx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class LazyZeroedMemoryTest {

    private static final long MIB = 1L << 20;

    @Test
    void memoryIsZeroedWritableAndFreedWithItsArena() {
        MemorySegment block;
        try (Arena arena = Arena.ofShared()) {
            block = LazyZeroedMemory.allocate(arena, 3 * MIB + 12);
            assertEquals(3 * MIB + 12, block.byteSize());
            assertEquals(-1, firstNonZero(block));
            block.set(ValueLayout.JAVA_FLOAT, block.byteSize() - 4, 1.5f);
            assertEquals(1.5f, block.get(ValueLayout.JAVA_FLOAT, block.byteSize() - 4));
        }
        assertFalse(block.scope().isAlive());
    }

    /** What the KV pool relies on: a grown buffer takes resident memory only where it is written. */
    @Test
    void untouchedMemoryTakesNoResidentMemory() throws IOException {
        assumeTrue(Files.isReadable(Path.of("/proc/self/status")), "resident memory is read from Linux's /proc");
        try (Arena arena = Arena.ofShared()) {
            long before = residentMib();
            MemorySegment block = LazyZeroedMemory.allocate(arena, 1024 * MIB);
            long untouched = residentMib() - before;
            block.asSlice(0, 64 * MIB).fill((byte) 1);
            long written = residentMib() - before;
            assertTrue(untouched < 32, "1 GiB allocated raised resident memory by " + untouched + " MiB");
            assertTrue(written >= 48, "writing 64 MiB raised resident memory by only " + written + " MiB");
        }
    }

    /**
     * What made the idle pool resident (glibc's {@code calloc} clears reused heap memory with {@code memset}): after
     * a burst wrote and freed larger blocks, the smaller blocks allocated next, on a thread of its own as the
     * scheduler's, still take no resident memory until written. With {@code calloc} this measured 130 of 384 MiB.
     */
    @Test
    void memoryAllocatedAfterABurstWasFreedIsNotResidentUntilWritten() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/self/status")), "resident memory is read from Linux's /proc");
        long[] untouched = new long[1];
        Thread scheduler = new Thread(() -> {
            try {
                for (int round = 0; round < 2; round++) {
                    try (Arena burst = Arena.ofShared()) {
                        for (int i = 0; i < 48; i++) {
                            LazyZeroedMemory.allocate(burst, 16 * MIB + 4096).fill((byte) 1);
                        }
                    }
                }
                LazyZeroedMemory.releaseFreed();
                long before = residentMib();
                try (Arena idle = Arena.ofShared()) {
                    for (int i = 0; i < 48; i++) {
                        LazyZeroedMemory.allocate(idle, 8 * MIB + 4096);
                    }
                    untouched[0] = residentMib() - before;
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        scheduler.start();
        scheduler.join();
        assertTrue(untouched[0] < 32, "384 MiB allocated after the burst raised resident memory by " + untouched[0]
                + " MiB");
    }

    private static long firstNonZero(MemorySegment block) {
        for (long at = 0; at < block.byteSize(); at++) {
            if (block.get(ValueLayout.JAVA_BYTE, at) != 0) {
                return at;
            }
        }
        return -1;
    }

    private static long residentMib() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
            }
        }
        throw new IllegalStateException("no VmRSS in /proc/self/status");
    }
}
