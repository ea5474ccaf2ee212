package dev.crucible.engine.onnx;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;

/**
 * Zeroed native memory whose pages cost neither time nor resident memory until they are written, freed when its arena
 * closes. On Linux each block is an anonymous mapping of its own ({@code mmap}), given back to the kernel whole by
 * {@code munmap}; elsewhere it comes from the C library's {@code calloc}. {@link Arena#allocate} instead fills every
 * byte up front, on the calling thread. The KV pool grows by doubling and writes only its held rows' positions, so for
 * it this is most of each new buffer.
 *
 * <p>Why not {@code calloc} on Linux: glibc maps a large block on its own only while the block is above its mmap
 * threshold, which it raises to the size of every mapped block freed (up to 32 MiB). After a burst freed the pool's
 * larger buffers, the smaller ones the idle pool shrinks to come from the heap, where {@code calloc} clears memory
 * that was used before with {@code memset}: every byte of the shrunk pool became resident, the positions no cache
 * holds included (about 400 MB on the 0.5B model after {@code bench/serve}'s burst, eight prefix-cache rows of 2,049
 * positions).
 */
final class LazyZeroedMemory {

    private static final Linker LINKER = Linker.nativeLinker();
    private static final boolean LINUX = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux");
    private static final int PROT_READ_WRITE = 0x1 | 0x2;
    private static final int MAP_PRIVATE_ANONYMOUS = 0x02 | 0x20;
    private static final MethodHandle MMAP = LINUX ? LINKER.downcallHandle(
            LINKER.defaultLookup().find("mmap").orElseThrow(), FunctionDescriptor.of(ValueLayout.ADDRESS,
                    ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                    ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG)) : null;
    private static final MethodHandle MUNMAP = LINUX ? LINKER.downcallHandle(
            LINKER.defaultLookup().find("munmap").orElseThrow(), FunctionDescriptor.of(ValueLayout.JAVA_INT,
                    ValueLayout.ADDRESS, ValueLayout.JAVA_LONG)) : null;
    private static final MethodHandle CALLOC = LINKER.downcallHandle(
            LINKER.defaultLookup().find("calloc").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG));
    private static final MethodHandle FREE = LINKER.downcallHandle(LINKER.defaultLookup().find("free").orElseThrow(),
            FunctionDescriptor.ofVoid(ValueLayout.ADDRESS));

    /** glibc's {@code malloc_trim}, absent from other C libraries. */
    private static final MethodHandle TRIM = LINKER.defaultLookup().find("malloc_trim")
            .map(f -> LINKER.downcallHandle(f, FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG)))
            .orElse(null);

    private LazyZeroedMemory() {
    }

    /**
     * Returns the C heap's free pages to the kernel (glibc's {@code malloc_trim(0)}; nothing elsewhere): what ONNX
     * Runtime's arena and the JVM freed there stays resident until then, since glibc gives back on its own only the
     * top of the main heap.
     */
    static void releaseFreed() {
        if (TRIM == null) {
            return;
        }
        try {
            int ignored = (int) TRIM.invokeExact(0L);
        } catch (Throwable e) {
            throw new IllegalStateException("malloc_trim failed", e);
        }
    }

    /**
     * {@code bytes} zeroed bytes, freed when {@code arena} closes.
     *
     * @throws OutOfMemoryError when the system cannot give them
     */
    static MemorySegment allocate(Arena arena, long bytes) {
        return LINUX ? mapped(arena, bytes) : allocated(arena, bytes);
    }

    private static MemorySegment mapped(Arena arena, long bytes) {
        MemorySegment block;
        try {
            block = (MemorySegment) MMAP.invokeExact(MemorySegment.NULL, bytes, PROT_READ_WRITE,
                    MAP_PRIVATE_ANONYMOUS, -1, 0L);
        } catch (Throwable e) {
            throw new IllegalStateException("mmap failed", e);
        }
        if (block.address() == -1L) {
            throw new OutOfMemoryError("the KV cache could not map " + bytes + " bytes of memory");
        }
        return block.reinterpret(bytes, arena, b -> unmap(b, bytes));
    }

    private static void unmap(MemorySegment block, long bytes) {
        int failed;
        try {
            failed = (int) MUNMAP.invokeExact(block, bytes);
        } catch (Throwable e) {
            throw new IllegalStateException("munmap failed", e);
        }
        if (failed != 0) {
            throw new IllegalStateException("munmap of " + bytes + " bytes at " + block.address() + " failed");
        }
    }

    private static MemorySegment allocated(Arena arena, long bytes) {
        MemorySegment block;
        try {
            block = (MemorySegment) CALLOC.invokeExact(1L, bytes);
        } catch (Throwable e) {
            throw new IllegalStateException("calloc failed", e);
        }
        if (block.equals(MemorySegment.NULL)) {
            throw new OutOfMemoryError("the KV cache could not get " + bytes + " bytes of native memory");
        }
        return block.reinterpret(bytes, arena, LazyZeroedMemory::free);
    }

    private static void free(MemorySegment block) {
        try {
            FREE.invokeExact(block);
        } catch (Throwable e) {
            throw new IllegalStateException("free failed", e);
        }
    }
}
