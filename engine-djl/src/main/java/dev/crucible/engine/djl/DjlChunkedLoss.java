package dev.crucible.engine.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.NDScope;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.Shape;
import ai.djl.training.GradientCollector;
import java.util.Arrays;
import java.util.stream.LongStream;

/**
 * The training loss's scoring over chunks of target rows: each chunk's logits made from the hidden states, turned
 * into log-probabilities (and entropies), and, with a gradient collector, backpropagated, so the
 * {@code [tokens, vocabulary]} logits never exist whole. Used by {@link DjlLoraTrainer}, on its thread.
 *
 * @param transformer the model whose head scores the rows
 * @param manager     the trainer's manager, for the arrays a chunk makes
 * @param memory      the chunk size ({@link DjlTrainingMemory#lossChunkRows})
 */
record DjlChunkedLoss(DjlTransformer transformer, NDManager manager, DjlTrainingMemory memory) {

    /**
     * Scores some of the batch's targets from the hidden states {@code h}, {@link DjlTrainingMemory#lossChunkRows} at
     * a time, each chunk's logits freed before the next: writes each one's log-probability and the entropy of its
     * next-token distribution at its index in {@code logprobs} and {@code entropies} (unless that is null). With a
     * {@code collector}, each chunk then backpropagates the sum of its log-probabilities, each weighted by its entry
     * in {@code coefficients} (by 1 when that is null), adding to the gradients of {@code h} and the head's matrices.
     * A collector without coefficients comes only with a head that has no adapter: that unit backward is written by
     * hand ({@link #byHand}).
     */
    void score(NDArray h, DjlTrainingBatch packed, int[] indices, DjlLoraBatch lora, float[] logprobs,
            float[] entropies, GradientCollector collector, float[] coefficients) {
        int rows = memory.lossChunkRows();
        for (int from = 0; from < indices.length; from += rows) {
            int[] chunk = Arrays.copyOfRange(indices, from, Math.min(indices.length, from + rows));
            try (NDScope scope = new NDScope()) {
                scope.suppressNotUsedWarning();
                if (collector != null && coefficients == null) {
                    byHand(h, packed, chunk, logprobs, entropies, collector);
                    continue;
                }
                NDArray logits = transformer.logits(h, pick(packed.rows(), chunk), lora, manager);
                NDArray logp = logits.logSoftmax(-1);
                // log-softmax's backward reads its output, not its input: the chunk's logits go at once.
                logits.close();
                NDArray picked = targetLogprobs(logp, pick(packed.targetTokens(), chunk));
                scatter(picked.toFloatArray(), chunk, logprobs);
                if (entropies != null) {
                    NDArray detached = logp.stopGradient();
                    scatter(detached.exp().mul(detached).sum(new int[] {-1}).neg().toFloatArray(), chunk, entropies);
                }
                if (collector != null) {
                    collector.backward(coefficients == null ? picked.sum()
                            : picked.mul(manager.create(pick(coefficients, chunk))).sum());
                }
            }
        }
    }

    /**
     * One chunk of {@link #score}'s unit backward through a head without an adapter, its gradient written by hand:
     * the derivative of {@code log_softmax(z)[t]} with respect to {@code z} is {@code onehot(t) - softmax(z)}, made in
     * place from the log-probabilities' exponential (the entropies' too), and the head's input gets it times the frozen
     * head ({@link DjlTransformer#baseHeadBackward}); autograd runs only from there, through the final norm. Autograd
     * would keep the log-probabilities, zero-fill an array for the gather's backward and make another for the
     * log-softmax's: one {@code [chunk, vocabulary]} array less at the peak, and three fewer passes over one.
     */
    private void byHand(NDArray h, DjlTrainingBatch packed, int[] chunk, float[] logprobs, float[] entropies,
            GradientCollector collector) {
        int n = chunk.length;
        NDArray normed = transformer.headInput(h, pick(packed.rows(), chunk), manager);
        NDArray logits = transformer.baseHead(normed.stopGradient());
        NDArray logp = logits.logSoftmax(-1);
        logits.close();
        long[] targets = pick(packed.targetTokens(), chunk);
        NDArray picked = targetLogprobs(logp, targets);
        scatter(picked.toFloatArray(), chunk, logprobs);
        NDArray gradient = logp.exp();
        if (entropies != null) {
            scatter(gradient.mul(logp).sum(new int[] {-1}).neg().toFloatArray(), chunk, entropies);
        }
        logp.close();
        gradient.negi();
        gradient.set(new NDIndex("{}, {}", manager.create(LongStream.range(0, n).toArray()), manager.create(targets)),
                picked.exp().neg().add(1));
        NDArray input = transformer.baseHeadBackward(gradient);
        gradient.close();
        collector.backward(DjlOps.inner(normed, input));
    }

    /** Each row's log-probability of its target: {@code logp[i, targets[i]]}, shape {@code [rows]}. */
    private NDArray targetLogprobs(NDArray logp, long[] targets) {
        return logp.gather(manager.create(targets, new Shape(targets.length, 1)), 1).reshape(targets.length);
    }

    private static long[] pick(long[] values, int[] indices) {
        return Arrays.stream(indices).mapToLong(i -> values[i]).toArray();
    }

    private static float[] pick(float[] values, int[] indices) {
        float[] out = new float[indices.length];
        for (int i = 0; i < indices.length; i++) {
            out[i] = values[indices[i]];
        }
        return out;
    }

    private static void scatter(float[] values, int[] indices, float[] into) {
        for (int i = 0; i < indices.length; i++) {
            into[indices[i]] = values[i];
        }
    }
}
