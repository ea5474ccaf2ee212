package dev.crucible.engine.onnx;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

/**
 * The key/value buffers of a runner's caches: per layer one off-heap buffer for keys and one for values,
 * {@code [slots, kv_heads, maxLen, head_dim]} F32, each cache owning one slot (row). GroupQueryAttention reads and
 * writes a contiguous range of rows in place ({@link #views}), so batched decoding passes the buffers themselves, with
 * no copy per token. {@code maxLen} is a power of two at least as long as the longest sequence held (at most
 * {@code max_position_embeddings}) plus one spare position: a row in the range that is not in the batch gets a
 * throw-away token written at its next free position, which for a full cache is that spare one.
 *
 * <p>Both dimensions grow by doubling as caches are made and sequences lengthen ({@link #ensureLength}), the held rows
 * copied once each time, so a cache's capacity costs nothing until used and a token costs amortised O(1) copying.
 * New buffers are zeroed lazily ({@link LazyZeroedMemory}): a growth costs the copy of the held rows, not a fill of
 * the whole buffer, and rows and positions never written take no resident memory. Memory is freed when the pool
 * closes. Not thread-safe: used under the runner's lock.
 */
final class OnnxKvPool implements AutoCloseable {

    private static final int FIRST_SLOTS = 1;
    private static final int SHORTEST = 16;

    private final int layers;
    private final int kvHeads;
    private final int headDim;
    private final int longest;
    private int maxLen;
    private Arena arena;
    private MemorySegment[] keys;
    private MemorySegment[] values;
    private OnnxKvCache[] owners = new OnnxKvCache[0];
    /** The tensors {@link #views} made last, for rows {@code [viewFirst, viewFirst + viewCount)}; null when none. */
    private OnnxTensor[] views;
    private int viewFirst;
    private int viewCount;

    /** @param longest the longest sequence any cache may hold: {@code max_position_embeddings} */
    OnnxKvPool(int layers, int kvHeads, int headDim, int longest) {
        this.layers = layers;
        this.kvHeads = kvHeads;
        this.headDim = headDim;
        this.longest = longest;
        this.maxLen = Math.min(SHORTEST, longest) + 1;
    }

    /** Makes every row hold at least {@code tokens} positions plus the spare one, copying the held rows if it grows. */
    void ensureLength(int tokens) {
        if (tokens < maxLen) {
            return;
        }
        int grown = Math.min(longest, Math.max(SHORTEST, Integer.highestOneBit(tokens - 1) << 1)) + 1;
        reallocate(owners.length, grown);
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
                return s;
            }
        }
        int slot = owners.length;
        reallocate(Math.max(FIRST_SLOTS, 2 * owners.length), maxLen);
        owners[slot] = cache;
        return slot;
    }

    /** Frees row {@code slot}. */
    void release(int slot) {
        owners[slot] = null;
    }

    /**
     * Copies the first {@code tokens} positions of row {@code from} into row {@code to}, every layer and head; rows
     * are at least as long as any forwarded sequence, so the positions are there.
     */
    void copyPrefix(int from, int to, int tokens) {
        long headBytes = (long) maxLen * headDim * Float.BYTES;
        long bytes = (long) tokens * headDim * Float.BYTES;
        for (int l = 0; l < layers; l++) {
            for (int h = 0; h < kvHeads; h++) {
                long source = ((long) from * kvHeads + h) * headBytes;
                long target = ((long) to * kvHeads + h) * headBytes;
                MemorySegment.copy(keys[l], source, keys[l], target, bytes);
                MemorySegment.copy(values[l], source, values[l], target, bytes);
            }
        }
    }

    /**
     * Tensors over rows {@code [first, first + count)} of every layer's keys and values, sharing the pool's memory:
     * {@code views[2 * layer]} the keys, {@code views[2 * layer + 1]} the values. Owned by the pool: the same tensors
     * are handed out again while the rows asked for and the buffers stay the same (decoding asks for the same rows
     * step after step, and making 2 tensors per layer through JNI each step costs a few percent of an int4 token);
     * they are closed when other rows are asked for, when the pool grows and when it closes.
     */
    OnnxTensor[] views(OrtEnvironment env, int first, int count) throws OrtException {
        if (views != null && viewFirst == first && viewCount == count) {
            return views;
        }
        dropViews();
        long rowBytes = rowFloats() * Float.BYTES;
        long[] shape = {count, kvHeads, maxLen, headDim};
        OnnxTensor[] made = new OnnxTensor[2 * layers];
        try {
            for (int l = 0; l < layers; l++) {
                made[2 * l] = OnnxTensor.createTensor(env, keys[l].asSlice(first * rowBytes, count * rowBytes)
                        .asByteBuffer().order(ByteOrder.nativeOrder()).asFloatBuffer(), shape);
                made[2 * l + 1] = OnnxTensor.createTensor(env, values[l].asSlice(first * rowBytes, count * rowBytes)
                        .asByteBuffer().order(ByteOrder.nativeOrder()).asFloatBuffer(), shape);
            }
        } catch (OrtException | RuntimeException e) {
            close(made);
            throw e;
        }
        views = made;
        viewFirst = first;
        viewCount = count;
        return views;
    }

    private void dropViews() {
        if (views != null) {
            close(views);
            views = null;
        }
    }

    private static void close(OnnxTensor[] tensors) {
        for (OnnxTensor t : tensors) {
            if (t != null) {
                t.close();
            }
        }
    }

    private long rowFloats() {
        return (long) kvHeads * maxLen * headDim;
    }

    /** New buffers of {@code slots} rows of {@code length} positions, holding what the old ones held. */
    private void reallocate(int slots, int length) {
        dropViews();
        Arena fresh = Arena.ofShared();
        long bytes = (long) slots * kvHeads * length * headDim * Float.BYTES;
        MemorySegment[] k = new MemorySegment[layers];
        MemorySegment[] v = new MemorySegment[layers];
        try {
            for (int l = 0; l < layers; l++) {
                k[l] = LazyZeroedMemory.allocate(fresh, bytes);
                v[l] = LazyZeroedMemory.allocate(fresh, bytes);
                if (keys != null) {
                    copyRows(keys[l], k[l], length);
                    copyRows(values[l], v[l], length);
                }
            }
        } catch (RuntimeException | OutOfMemoryError e) {
            fresh.close();
            throw e;
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
        maxLen = length;
    }

    /**
     * Copies every held row's heads, each {@code [maxLen, head_dim]}, into rows of {@code length} positions: the
     * positions its cache holds, since those past a cache's length and free rows hold garbage. So a growth writes
     * (and, with lazily zeroed buffers, makes resident) only what the caches hold.
     */
    private void copyRows(MemorySegment from, MemorySegment to, int length) {
        long headBytes = (long) maxLen * headDim * Float.BYTES;
        long newHeadBytes = (long) length * headDim * Float.BYTES;
        for (int slot = 0; slot < owners.length; slot++) {
            if (owners[slot] == null) {
                continue;
            }
            long bytes = Math.min((long) owners[slot].length() * headDim * Float.BYTES,
                    Math.min(headBytes, newHeadBytes));
            for (int h = 0; h < kvHeads; h++) {
                long head = (long) slot * kvHeads + h;
                MemorySegment.copy(from, head * headBytes, to, head * newHeadBytes, bytes);
            }
        }
    }

    /** Frees the buffers; idempotent. */
    @Override
    public void close() {
        dropViews();
        if (arena != null) {
            arena.close();
            arena = null;
        }
    }
}
