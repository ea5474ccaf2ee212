package dev.crucible.engine.onnx;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

/**
 * The key/value buffers of a set of caches of one length class: per layer one off-heap buffer for keys and one for
 * values, {@code [slots, kv_heads, maxLen, head_dim]} F32, each cache owning one slot (row). GroupQueryAttention reads
 * and writes a contiguous range of rows in place ({@link #views}), so batched decoding of caches of one pool passes the
 * buffers themselves, with no copy per token. {@code maxLen} is the class size plus one spare position: a row in the
 * range that is not in the batch gets a throw-away token written at its next free position, which for a full cache is
 * that spare one.
 *
 * <p>Slots grow by doubling (the held rows are copied once then); memory is freed when the pool closes. Not
 * thread-safe: used under the runner's lock.
 */
final class OnnxKvPool implements AutoCloseable {

    private static final int FIRST_SLOTS = 1;

    private final int layers;
    private final int kvHeads;
    private final int headDim;
    private final int maxLen;
    private Arena arena;
    private MemorySegment[] keys;
    private MemorySegment[] values;
    private OnnxKvCache[] owners = new OnnxKvCache[0];
    private int held;

    OnnxKvPool(int layers, int kvHeads, int headDim, int maxLen) {
        this.layers = layers;
        this.kvHeads = kvHeads;
        this.headDim = headDim;
        this.maxLen = maxLen;
    }

    /** Positions per row, including the spare one. */
    int maxLen() {
        return maxLen;
    }

    /** The number of rows, held or free. */
    int slots() {
        return owners.length;
    }

    /** The cache in row {@code slot}, or null for a free row. */
    OnnxKvCache owner(int slot) {
        return owners[slot];
    }

    /** Gives {@code cache} a free row, growing the buffers when none is free; returns the row. */
    int acquire(OnnxKvCache cache) {
        for (int s = 0; s < owners.length; s++) {
            if (owners[s] == null) {
                owners[s] = cache;
                held++;
                return s;
            }
        }
        int slot = owners.length;
        grow(Math.max(FIRST_SLOTS, 2 * owners.length));
        owners[slot] = cache;
        held++;
        return slot;
    }

    /** Frees row {@code slot}; returns whether the pool is now empty. */
    boolean release(int slot) {
        owners[slot] = null;
        held--;
        return held == 0;
    }

    /**
     * Tensors over rows {@code [first, first + count)} of every layer's keys and values, sharing the pool's memory:
     * {@code views[2 * layer]} the keys, {@code views[2 * layer + 1]} the values. The caller closes them (which leaves
     * the memory alone) before the pool next grows.
     */
    OnnxTensor[] views(OrtEnvironment env, int first, int count) throws OrtException {
        long rowBytes = rowFloats() * Float.BYTES;
        long[] shape = {count, kvHeads, maxLen, headDim};
        OnnxTensor[] views = new OnnxTensor[2 * layers];
        try {
            for (int l = 0; l < layers; l++) {
                views[2 * l] = OnnxTensor.createTensor(env, keys[l].asSlice(first * rowBytes, count * rowBytes)
                        .asByteBuffer().order(ByteOrder.nativeOrder()).asFloatBuffer(), shape);
                views[2 * l + 1] = OnnxTensor.createTensor(env, values[l].asSlice(first * rowBytes, count * rowBytes)
                        .asByteBuffer().order(ByteOrder.nativeOrder()).asFloatBuffer(), shape);
            }
        } catch (OrtException | RuntimeException e) {
            close(views);
            throw e;
        }
        return views;
    }

    static void close(OnnxTensor[] tensors) {
        for (OnnxTensor t : tensors) {
            if (t != null) {
                t.close();
            }
        }
    }

    private long rowFloats() {
        return (long) kvHeads * maxLen * headDim;
    }

    private void grow(int slots) {
        Arena fresh = Arena.ofShared();
        long bytes = slots * rowFloats() * Float.BYTES;
        MemorySegment[] k = new MemorySegment[layers];
        MemorySegment[] v = new MemorySegment[layers];
        for (int l = 0; l < layers; l++) {
            k[l] = fresh.allocate(bytes, 64);
            v[l] = fresh.allocate(bytes, 64);
            if (keys != null) {
                k[l].copyFrom(keys[l]);
                v[l].copyFrom(values[l]);
            }
        }
        OnnxKvCache[] grown = new OnnxKvCache[slots];
        System.arraycopy(owners, 0, grown, 0, owners.length);
        if (arena != null) {
            arena.close();
        }
        arena = fresh;
        keys = k;
        values = v;
        owners = grown;
    }

    /** Frees the buffers; idempotent. */
    @Override
    public void close() {
        if (arena != null) {
            arena.close();
            arena = null;
        }
    }
}
