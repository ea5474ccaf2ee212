package dev.crucible.hf.safetensors;

import java.lang.foreign.MemorySegment;

/** A tensor's header entry and its bytes inside a mapped file (read-only). */
record MappedTensor(TensorInfo info, MemorySegment raw, String file) {
}
