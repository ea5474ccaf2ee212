package dev.crucible.engine.onnx;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Zeroed native memory from the C library's {@code calloc}, freed with {@code free} when its arena closes. Large blocks
 * come from fresh pages that the kernel zeroes when they are first touched, so the parts never written cost neither
 * time nor resident memory; {@link Arena#allocate} instead fills every byte up front, on the calling thread. The KV
 * pool grows by doubling and writes only its held rows' positions, so for it this is most of each new buffer.
 * {@code calloc} aligns to 16 bytes, which ONNX Runtime's tensors over the memory do not need exceeded.
 */
final class LazyZeroedMemory {

    private static final Linker LINKER = Linker.nativeLinker();
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
     * Returns the C heap's free pages to the kernel (glibc's {@code malloc_trim(0)}; nothing elsewhere). Blocks freed
     * by {@code free} go back to the kernel at once only when they were mapped on their own, which glibc stops doing
     * for blocks below its adaptive threshold (up to 32 MiB) once blocks that large have been freed; the KV buffers of
     * a small model are such blocks, so after freeing them this is what makes the resident memory fall.
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
     * @throws OutOfMemoryError when the C library cannot allocate them
     */
    static MemorySegment allocate(Arena arena, long bytes) {
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
