package dev.crucible.engine.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDArrays;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.Shape;
import java.util.HashMap;
import java.util.Map;

/**
 * Grouped-query attention of one layer, sequence by sequence: each sequence's new keys and values are written to its
 * cache, then its new queries attend to the cache's first {@code length + n} positions under a causal mask. Query head
 * {@code h} reads key/value head {@code h / (heads / kv_heads)} (transformers' {@code repeat_kv}); instead of copying
 * the keys that many times, the queries of one group are stacked as rows of one matmul per key/value head.
 */
record DjlAttention(int heads, int kvHeads, int headDim) {

    /**
     * @param q {@code [tokens, heads, head_dim]} after rotary embedding; {@code k} and {@code v} likewise with kv_heads
     * @return the attention output {@code [tokens, heads * head_dim]}, rows in batch order
     */
    NDArray forward(int layer, NDArray q, NDArray k, NDArray v, DjlPackedBatch batch, NDManager manager) {
        NDList outputs = new NDList(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            int n = batch.length(i);
            NDIndex rows = new NDIndex("{}:{}", batch.offsets()[i], batch.offsets()[i] + n);
            DjlKvCache cache = batch.caches().get(i);
            int start = cache.length();
            cache.write(layer, start, k.get(rows).transpose(1, 0, 2), v.get(rows).transpose(1, 0, 2));
            outputs.add(attend(q.get(rows), cache.keys(layer, start + n), cache.values(layer, start + n),
                    n > 1 ? causalMask(manager, n, start) : null, scale(manager)));
        }
        return outputs.size() == 1 ? outputs.singletonOrThrow() : NDArrays.concat(outputs, 0);
    }

    /**
     * Training's attention: each packed sequence attends causally to its own keys and values, with no cache.
     *
     * @param offsets where each sequence's rows start; {@code lengths} how many rows it has
     * @param masks   each sequence's causal mask ({@link #causalMasks}), made once for all layers
     * @param scale   the scores' scale ({@link #scale(NDManager)}), likewise
     */
    NDArray selfAttend(NDArray q, NDArray k, NDArray v, int[] offsets, int[] lengths, NDArray[] masks,
            NDArray scale) {
        NDList outputs = new NDList(lengths.length);
        for (int i = 0; i < lengths.length; i++) {
            NDIndex rows = new NDIndex("{}:{}", offsets[i], offsets[i] + lengths[i]);
            outputs.add(attend(q.get(rows), k.get(rows).transpose(1, 0, 2), v.get(rows).transpose(1, 0, 2), masks[i],
                    scale));
        }
        return outputs.size() == 1 ? outputs.singletonOrThrow() : NDArrays.concat(outputs, 0);
    }

    /**
     * The causal mask of each of training's sequences ({@code [n, n]}, null for a single token), sequences of one length
     * sharing one array: made once per batch instead of per layer and sequence, since building one is a Java loop and
     * a copy into native memory.
     */
    static NDArray[] causalMasks(NDManager manager, int[] lengths) {
        Map<Integer, NDArray> byLength = new HashMap<>();
        NDArray[] masks = new NDArray[lengths.length];
        for (int i = 0; i < lengths.length; i++) {
            masks[i] = lengths[i] > 1 ? byLength.computeIfAbsent(lengths[i], n -> causalMask(manager, n, 0)) : null;
        }
        return masks;
    }

    /**
     * The scores' scale as an array of the call's manager, not mul(float): DJL wraps a Java buffer without copying
     * and frees it when the temporary is closed, but training's autograd keeps the factor for the backward pass.
     */
    NDArray scale(NDManager manager) {
        return manager.create((float) (1.0 / Math.sqrt(headDim)));
    }

    /**
     * One sequence: {@code q [n, heads, d]} against {@code keys, values [kv_heads, start + n, d]}, under {@code mask}
     * ({@code [n, start + n]}; null when {@code n} is 1).
     */
    private NDArray attend(NDArray q, NDArray keys, NDArray values, NDArray mask, NDArray scale) {
        int n = (int) q.getShape().get(0);
        int group = heads / kvHeads;
        long seen = keys.getShape().get(1);
        NDArray grouped = q.transpose(1, 0, 2).reshape(kvHeads, (long) group * n, headDim);
        NDArray scores = grouped.matMul(keys.transpose(0, 2, 1)).mul(scale);
        if (mask != null) {
            scores = scores.reshape(kvHeads, group, n, seen).add(mask).reshape(kvHeads, (long) group * n, seen);
        }
        NDArray out = scores.softmax(-1).matMul(values);
        return out.reshape(heads, n, headDim).transpose(1, 0, 2).reshape(n, (long) heads * headDim);
    }

    /** {@code [n, start + n]}: 0 where new token {@code j} may see position {@code s} ({@code s <= start + j}), else -inf. */
    private static NDArray causalMask(NDManager manager, int n, int start) {
        int seen = start + n;
        float[] mask = new float[n * seen];
        for (int j = 0; j < n; j++) {
            for (int s = start + j + 1; s < seen; s++) {
                mask[j * seen + s] = Float.NEGATIVE_INFINITY;
            }
        }
        return manager.create(mask, new Shape(n, seen));
    }
}
