package dev.crucible.hf.safetensors;

import java.lang.foreign.MemorySegment;

/** A tensor's header entry, its bytes inside a mapped file (read-only), the file's name and where in it they are. */
record MappedTensor(TensorInfo info, MemorySegment raw, String file, TensorLocation location) {
}
