package dev.crucible.engine.onnx;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The key/value buffers of a runner's caches: per layer one off-heap buffer for keys and one for values,
 * {@code [slots, kv_heads, maxLen, head_dim]} F32, each cache owning one slot (row), or holding a prefix kept on
 * another cache's row ({@link #keep}). GroupQueryAttention reads and writes a contiguous range of rows in place
 * ({@link #views}), so batched decoding passes the buffers themselves, with no copy per token. {@code maxLen} is a
 * power of two at least as long as the longest sequence held (at most {@code max_position_embeddings}) plus one spare
 * position, where a full cache's row took a throw-away token when decodes ran over rows outside their batch; they no
 * longer do ({@link #gather}), so the spare is unused.
 *
 * <p>Both dimensions grow by doubling as caches are made and sequences lengthen ({@link #ensureLength}), the held rows
 * copied once each time, so a cache's capacity costs nothing until used and a token costs amortised O(1) copying.
 * New buffers are zeroed lazily ({@link LazyZeroedMemory}): a growth costs the copy of the held rows, not a fill of
 * the whole buffer, and rows and positions never written take no resident memory. An idle runner gives back what a
 * burst grew the pool to ({@link #shrink}); the rest is freed when the pool closes. Not thread-safe: used under the
 * runner's lock.
 */
final class OnnxKvPool implements AutoCloseable {

    private static final int FIRST_SLOTS = 1;
    private static final int SHORTEST = 16;
    private static final int VIEWS_KEPT = 2;

    private final int layers;
    private final int kvHeads;
    private final int headDim;
    private final int longest;
    private int maxLen;
    private Arena arena;
    private MemorySegment[] keys;
    private MemorySegment[] values;
    /** Each row's writer: the cache forwards append to, or once it is freed the longest prefix kept on the row. */
    private OnnxKvCache[] owners = new OnnxKvCache[0];
    /** Prefixes kept on their source's row ({@link #keep}), besides its owner; they move with the row. */
    private final List<OnnxKvCache> kept = new ArrayList<>();
    /** The tensors {@link #views} made last, the latest first; a run asks for two ranges (its two groups). */
    private final List<Views> views = new ArrayList<>();

    /** Tensors over rows {@code [first, first + count)}, as {@link #views} hands them out. */
    private record Views(int first, int count, OnnxTensor[] tensors) {
    }

    /** The scratch cache ({@link #scratch}); null until a run needs it. */
    private OnnxTensor[] scratch;

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
        reallocate(identity(owners.length), lengthFor(tokens));
    }

    /** Positions per row (with the spare one) for sequences of up to {@code tokens}: a power of two, at least 16. */
    private int lengthFor(int tokens) {
        return Math.min(longest, Math.max(SHORTEST, tokens <= 1 ? 1 : Integer.highestOneBit(tokens - 1) << 1)) + 1;
    }

    /**
     * Gives back what a burst grew the pool to: moves the held rows to the front of new buffers just long enough for
     * the longest of them, and frees the old ones, so the rows of caches since freed (and their positions the kernel
     * had made resident) no longer cost memory. The held caches learn their new rows. Called when the runner idles.
     */
    void shrink() {
        int[] sources = new int[Math.max(FIRST_SLOTS, (int) java.util.Arrays.stream(owners)
                .filter(java.util.Objects::nonNull).count())];
        java.util.Arrays.fill(sources, -1);
        int held = 0;
        int tokens = 1;
        for (int s = 0; s < owners.length; s++) {
            if (owners[s] != null) {
                sources[held++] = s;
                tokens = Math.max(tokens, owners[s].length());
            }
        }
        reallocate(sources, lengthFor(tokens + 1));
    }

    /** Positions per row, including the spare one. */
    int maxLen() {
        return maxLen;
    }

    /** The number of rows, held or free. */
    int slots() {
        return owners.length;
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
        int[] sources = identity(Math.max(FIRST_SLOTS, 2 * owners.length));
        java.util.Arrays.fill(sources, owners.length, sources.length, -1);
        reallocate(sources, maxLen);
        owners[slot] = cache;
        return slot;
    }

    /**
     * Moves rows so that {@code members}' caches hold adjacent rows, starting at the lowest of their rows, swapping
     * each member above that block with a row in it that no member holds (another cache's, which moves to the
     * member's row, or a free one); returns the block's first row. A batched decode runs over a range of rows, so
     * without this every row between its members, a prefix cache's copy or a paused sequence, would be computed and
     * thrown away (half of an 8-stream decode's rows in the server, whose prompts' copies took the rows between the
     * streams'). A swap copies the positions the two caches hold; once adjacent, a steady batch moves nothing.
     */
    int gather(List<OnnxKvCache> members) {
        int first = Integer.MAX_VALUE;
        int last = -1;
        boolean[] member = new boolean[owners.length];
        for (OnnxKvCache c : members) {
            first = Math.min(first, c.slot());
            last = Math.max(last, c.slot());
            member[c.slot()] = true;
        }
        int end = first + members.size();
        if (last < end) {
            return first;
        }
        int free = first;
        for (OnnxKvCache c : members) {
            if (c.slot() < end) {
                continue;
            }
            while (member[free]) {
                free++;
            }
            int from = c.slot();
            swap(free, from);
            member[free] = true;
            member[from] = false;
        }
        return first;
    }

    /** Exchanges rows {@code a} and {@code b}: the positions their caches hold, and the caches' rows. */
    private void swap(int a, int b) {
        long headBytes = (long) maxLen * headDim * Float.BYTES;
        long aBytes = heldBytes(a);
        long bBytes = heldBytes(b);
        try (Arena scratch = Arena.ofConfined()) {
            MemorySegment held = scratch.allocate(Math.max(1, aBytes));
            for (int l = 0; l < layers; l++) {
                for (MemorySegment buffer : new MemorySegment[] {keys[l], values[l]}) {
                    for (int h = 0; h < kvHeads; h++) {
                        long atA = ((long) a * kvHeads + h) * headBytes;
                        long atB = ((long) b * kvHeads + h) * headBytes;
                        MemorySegment.copy(buffer, atA, held, 0, aBytes);
                        MemorySegment.copy(buffer, atB, buffer, atA, bBytes);
                        MemorySegment.copy(held, 0, buffer, atB, aBytes);
                    }
                }
            }
        }
        OnnxKvCache atA = owners[a];
        owners[a] = owners[b];
        owners[b] = atA;
        if (owners[a] != null) {
            owners[a].moved(a);
        }
        if (owners[b] != null) {
            owners[b].moved(b);
        }
        for (OnnxKvCache k : kept) {
            k.moved(k.slot() == a ? b : k.slot() == b ? a : k.slot());
        }
    }

    /** The bytes of one head's positions that row {@code slot}'s cache holds; 0 for a free row. */
    private long heldBytes(int slot) {
        return owners[slot] == null ? 0 : (long) owners[slot].length() * headDim * Float.BYTES;
    }

    /**
     * Makes {@code prefix} a second holder of row {@code prefix.slot()}, whose first {@code prefix.length()} positions
     * its owner holds and never writes again (forwards append past the owner's length): a kept prefix costs no copy
     * and no memory of its own.
     */
    void keep(OnnxKvCache prefix) {
        kept.add(prefix);
    }

    /**
     * Lets {@code cache} go: a kept prefix is dropped from its row; an owner's row passes to the longest prefix kept on
     * it, if any, else becomes free.
     */
    void release(OnnxKvCache cache) {
        int slot = cache.slot();
        if (owners[slot] != cache) {
            kept.remove(cache);
            return;
        }
        OnnxKvCache heir = null;
        for (OnnxKvCache k : kept) {
            if (k.slot() == slot && (heir == null || k.length() > heir.length())) {
                heir = k;
            }
        }
        kept.remove(heir);
        owners[slot] = heir;
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
     * step after step, and making 2 tensors per layer through JNI each step costs a few percent of an int4 token).
     * The last {@value #VIEWS_KEPT} ranges asked for stay valid, since a run binds the decoding rows and a prompt's
     * row side by side; older ones are closed, and all are when the pool grows and when it closes.
     */
    OnnxTensor[] views(OrtEnvironment env, int first, int count) throws OrtException {
        for (int i = 0; i < views.size(); i++) {
            Views v = views.get(i);
            if (v.first() == first && v.count() == count) {
                views.remove(i);
                views.addFirst(v);
                return v.tensors();
            }
        }
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
        views.addFirst(new Views(first, count, made));
        if (views.size() > VIEWS_KEPT) {
            close(views.removeLast().tensors());
        }
        return made;
    }

    /**
     * The scratch cache, per layer keys and values {@code [1, kv_heads, 1, head_dim]} in buffers of its own: where a
     * run's absent attention group ({@link OnnxRun.Group#scratch}) writes its one position, step after step, and
     * nothing reads. Made on first use; unlike the views it outlives growth, and it is freed when the pool closes.
     */
    OnnxTensor[] scratch(OrtEnvironment env) throws OrtException {
        if (scratch == null) {
            long[] shape = {1, kvHeads, 1, headDim};
            OnnxTensor[] made = new OnnxTensor[2 * layers];
            try {
                for (int i = 0; i < made.length; i++) {
                    made[i] = OnnxTensor.createTensor(env, ByteBuffer.allocateDirect(kvHeads * headDim * Float.BYTES)
                            .order(ByteOrder.nativeOrder()).asFloatBuffer(), shape);
                }
            } catch (OrtException | RuntimeException e) {
                close(made);
                throw e;
            }
            scratch = made;
        }
        return scratch;
    }

    private void dropViews() {
        views.forEach(v -> close(v.tensors()));
        views.clear();
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

    /** Row {@code i} from row {@code i}, for the first {@code slots} rows. */
    private static int[] identity(int slots) {
        return java.util.stream.IntStream.range(0, slots).toArray();
    }

    /**
     * New buffers of {@code sources.length} rows of {@code length} positions, row {@code i} holding what old row
     * {@code sources[i]} held (a held one), or nothing ({@code -1}, or a free row). The old buffers are freed.
     */
    private void reallocate(int[] sources, int length) {
        dropViews();
        Arena fresh = Arena.ofShared();
        long bytes = (long) sources.length * kvHeads * length * headDim * Float.BYTES;
        MemorySegment[] k = new MemorySegment[layers];
        MemorySegment[] v = new MemorySegment[layers];
        try {
            for (int l = 0; l < layers; l++) {
                k[l] = LazyZeroedMemory.allocate(fresh, bytes);
                v[l] = LazyZeroedMemory.allocate(fresh, bytes);
                if (keys != null) {
                    copyRows(keys[l], k[l], sources, length);
                    copyRows(values[l], v[l], sources, length);
                }
            }
        } catch (RuntimeException | OutOfMemoryError e) {
            fresh.close();
            throw e;
        }
        OnnxKvCache[] moved = new OnnxKvCache[sources.length];
        int[] rowOf = new int[owners.length];
        for (int i = 0; i < sources.length; i++) {
            if (sources[i] >= 0 && sources[i] < owners.length && owners[sources[i]] != null) {
                moved[i] = owners[sources[i]];
                moved[i].moved(i);
                rowOf[sources[i]] = i;
            }
        }
        for (OnnxKvCache prefix : kept) {
            prefix.moved(rowOf[prefix.slot()]);
        }
        if (arena != null) {
            arena.close();
        }
        arena = fresh;
        keys = k;
        values = v;
        owners = moved;
        maxLen = length;
    }

    /**
     * Copies the heads of each held row {@code sources[i]}, each {@code [maxLen, head_dim]}, into row {@code i} of
     * rows of {@code length} positions: the positions its cache holds, since those past a cache's length and free rows
     * hold garbage. So a growth writes (and, with lazily zeroed buffers, makes resident) only what the caches hold.
     */
    private void copyRows(MemorySegment from, MemorySegment to, int[] sources, int length) {
        long headBytes = (long) maxLen * headDim * Float.BYTES;
        long newHeadBytes = (long) length * headDim * Float.BYTES;
        for (int row = 0; row < sources.length; row++) {
            int slot = sources[row];
            if (slot < 0 || slot >= owners.length || owners[slot] == null) {
                continue;
            }
            long bytes = Math.min((long) owners[slot].length() * headDim * Float.BYTES,
                    Math.min(headBytes, newHeadBytes));
            for (int h = 0; h < kvHeads; h++) {
                MemorySegment.copy(from, ((long) slot * kvHeads + h) * headBytes, to,
                        ((long) row * kvHeads + h) * newHeadBytes, bytes);
            }
        }
    }

    /** Frees the buffers; idempotent. */
    @Override
    public void close() {
        dropViews();
        if (scratch != null) {
            close(scratch);
            scratch = null;
        }
        if (arena != null) {
            arena.close();
            arena = null;
        }
    }
}
