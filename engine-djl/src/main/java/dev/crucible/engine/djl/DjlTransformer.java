package dev.crucible.engine.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.training.GradientCollector;
import dev.crucible.engine.spi.SequenceLogits;
import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.peft.LoraTarget;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The decoder stack of LlamaModel, Qwen2Model and Qwen3Model, which differ only in what the config switches on: per
 * layer {@code h += o_proj(attention(rope(norm_qk(q/k/v_proj(rms_norm(h))))))}, then {@code h += mlp(rms_norm(h))};
 * finally {@code logits = lm_head(rms_norm(h))}, computed only for the rows whose logits are returned. The seven
 * projections of each layer, and the head, add the LoRA delta of each row's adapter, if any ({@link DjlLoraBatch}).
 * Stateless between calls; the caller runs it inside an {@link ai.djl.ndarray.NDScope} that frees every intermediate.
 */
final class DjlTransformer {

    private final ModelConfig config;
    private final DjlWeights weights;
    private final DjlRope rope;
    private final DjlAttention attention;
    private final float eps;

    DjlTransformer(ModelConfig config, DjlWeights weights) {
        this.config = config;
        this.weights = weights;
        this.rope = new DjlRope(config);
        this.attention = new DjlAttention(config.numAttentionHeads(), config.numKeyValueHeads(), config.headDim());
        this.eps = (float) config.rmsNormEps();
    }

    /** Runs the batch, writing keys and values to its caches (not advancing them), and returns the logits. */
    List<SequenceLogits> forward(DjlPackedBatch batch, NDManager manager) {
        DjlLoraBatch lora = DjlLoraBatch.of(batch, manager);
        NDArray h = hidden(batch.tokens(), batch.positions(), lora,
                (layer, q, k, v) -> attention.forward(layer, q, k, v, batch, manager), manager);
        return split(batch, logits(h, Arrays.stream(batch.logitRows()).asLongStream().toArray(), lora, manager)
                .toFloatArray());
    }

    /**
     * Training's decoder: whole sequences packed one after another without caches, each attending causally to itself
     * only. Its layers run one at a time ({@link Stack#layer}), so a caller can keep, drop or recompute each one's
     * activations; the rotary tables, causal masks and attention scale are made once here, in the caller's scope.
     *
     * @param lengths each sequence's length; the sequences fill {@code tokens} in order
     */
    Stack training(long[] tokens, int[] lengths, NDManager manager) {
        int[] positions = new int[tokens.length];
        int[] offsets = new int[lengths.length];
        for (int i = 0, row = 0; i < lengths.length; i++) {
            offsets[i] = row;
            for (int j = 0; j < lengths[i]; j++, row++) {
                positions[row] = j;
            }
        }
        NDArray[] masks = DjlAttention.causalMasks(manager, lengths);
        NDArray scale = attention.scale(manager);
        return new Stack(tokens, rope.cosSin(manager, positions),
                (layer, q, k, v) -> attention.selfAttend(q, k, v, offsets, lengths, masks, scale), manager);
    }

    /** Training's decoder over one packed batch, layer by layer ({@link #training}). */
    final class Stack {

        private final long[] tokens;
        private final NDList cosSin;
        private final Attend attend;
        private final NDManager manager;

        private Stack(long[] tokens, NDList cosSin, Attend attend, NDManager manager) {
            this.tokens = tokens;
            this.cosSin = cosSin;
            this.attend = attend;
            this.manager = manager;
        }

        /** The decoder's layer count. */
        int layers() {
            return weights.layers().size();
        }

        /** The first layer's input: the tokens' embeddings {@code [tokens, hidden]} (frozen, no gradient). */
        NDArray embedded() {
            return embed(tokens, manager);
        }

        /** Layer {@code index} applied to {@code h}, with gradients attached to whatever requires them. */
        NDArray layer(int index, NDArray h, DjlLoraBatch lora) {
            return DjlTransformer.this.layer(index, weights.layers().get(index), h, cosSin, lora, attend);
        }

        /**
         * A scalar whose gradient with respect to {@code h} and the LoRA matrices is layer {@code index}'s
         * vector-Jacobian product with {@code g}, the gradient arriving at its output: what backpropagating
         * {@code sum(layer(h) * g)} gives, without the down projection's product. The layer's output is
         * {@code r + down(m)} (the residual after attention, the SwiGLU product), so the gradient reaching {@code m}
         * through the frozen down weight is {@code g @ W_down}, a constant here: {@code sum(m * (g @ W_down))} carries
         * it, {@code sum(r * g)} the residual's, and {@code sum(delta(m) * g)} the down projection's LoRA delta's. The
         * backward needs {@code g @ W_down} anyway; the forward's {@code m @ W_down^T}, whose value nothing reads, is
         * not computed (a seventh of a recomputed layer's arithmetic).
         */
        NDArray vectorJacobian(int index, NDArray h, NDArray g, DjlLoraBatch lora) {
            DjlLayer w = weights.layers().get(index);
            Open open = DjlTransformer.this.open(index, w, h, cosSin, lora, attend);
            return DjlOps.inner(open.residual(), g).add(downObjective(index, w, open.gated(), g, lora));
        }

        /**
         * Layer {@code index} applied to {@code h}, and its gate and up projections' outputs (their LoRA deltas added),
         * which {@link #vectorJacobian(int, NDArray, NDArray, NDArray, NDArray, DjlLoraBatch, GradientCollector)}
         * reads instead of recomputing them: {@code [output, gate, up]}.
         */
        NDArray[] layerAndProjections(int index, NDArray h, DjlLoraBatch lora) {
            DjlLayer w = weights.layers().get(index);
            Open open = DjlTransformer.this.open(index, w, h, cosSin, lora, attend);
            return new NDArray[] {output(index, w, open, lora), open.gate(), open.up()};
        }

        /**
         * {@link #vectorJacobian(int, NDArray, NDArray, DjlLoraBatch)} from the layer's kept gate and up outputs
         * ({@link #layerAndProjections}), without their two products (two thirds of a recomputed layer's
         * arithmetic once the down projection's is gone). First a backward from leaves of {@code gate} and {@code up}
         * through the SwiGLU and the down projection, {@code sum(silu(gate) * up * (g @ W_down))} plus the down delta's
         * term: their gradients {@code dGate}, {@code dUp} (and the down projection's LoRA gradients). Then the layer is
         * recomputed up to the MLP's normed input {@code y} only, and the returned scalar carries the rest: the gate's
         * and up's frozen products give {@code y} the gradient {@code dGate @ W_gate + dUp @ W_up}, a constant here
         * ({@code sum(y * that)}), their LoRA deltas {@code sum(delta(y) * dGate)} and {@code sum(delta(y) * dUp)}, and
         * the residual {@code sum(r * g)}.
         */
        NDArray vectorJacobian(int index, NDArray h, NDArray g, NDArray gate, NDArray up, DjlLoraBatch lora,
                GradientCollector collector) {
            DjlLayer w = weights.layers().get(index);
            NDArray gateLeaf = gate.stopGradient();
            gateLeaf.setRequiresGradient(true);
            NDArray upLeaf = up.stopGradient();
            upLeaf.setRequiresGradient(true);
            collector.backward(downObjective(index, w, DjlOps.swiGlu(gateLeaf, upLeaf), g, lora));
            NDArray dGate = gateLeaf.getGradient();
            NDArray dUp = upLeaf.getGradient();
            NDArray residual = DjlTransformer.this.attended(index, w, h, cosSin, lora, attend);
            NDArray y = DjlOps.rmsNorm(residual, w.postNorm(), eps);
            NDArray objective = DjlOps.inner(residual, g)
                    .add(DjlOps.inner(y, dGate.matMul(w.gate()).addi(dUp.matMul(w.up()))));
            objective = plusDelta(objective, index, LoraTarget.GATE_PROJ, y, dGate, lora);
            return plusDelta(objective, index, LoraTarget.UP_PROJ, y, dUp, lora);
        }

        /**
         * {@code sum(m * (g @ W_down))} plus the down projection's LoRA term {@code sum(delta(m) * g)}: what carries
         * {@code g}, the gradient at {@code down(m)}, back to {@code m} and the down projection's LoRA matrices without
         * the frozen product's forward.
         */
        private NDArray downObjective(int index, DjlLayer w, NDArray gated, NDArray g, DjlLoraBatch lora) {
            return plusDelta(DjlOps.inner(gated, g.matMul(w.down())), index, LoraTarget.DOWN_PROJ, gated, g, lora);
        }

        /**
         * {@code objective + sum(delta(x) * g)} for {@code target}'s LoRA delta ({@link DjlLoraBatch#deltaInner}: no
         * {@code [tokens, out]} delta array, forward or backward), or {@code objective} when unadapted.
         */
        private NDArray plusDelta(NDArray objective, int index, LoraTarget target, NDArray x, NDArray g,
                DjlLoraBatch lora) {
            if (!lora.adapts(target)) {
                return objective;
            }
            return objective.add(lora.deltaInner(x, index, target, g));
        }

        /** Layers {@code from} to the last in turn, from {@code h}: the last layer's hidden states, the graph kept. */
        NDArray hidden(int from, NDArray h, DjlLoraBatch lora) {
            NDArray out = h;
            for (int i = from; i < layers(); i++) {
                out = layer(i, out, lora);
            }
            return out;
        }
    }

    /** How one layer's attention gets its keys and values: from caches (inference) or from the batch (training). */
    @FunctionalInterface
    private interface Attend {
        NDArray apply(int layer, NDArray q, NDArray k, NDArray v);
    }

    private NDArray hidden(long[] tokens, int[] positions, DjlLoraBatch lora, Attend attend, NDManager manager) {
        NDArray h = embed(tokens, manager);
        NDList cosSin = rope.cosSin(manager, positions);
        for (int i = 0; i < weights.layers().size(); i++) {
            h = layer(i, weights.layers().get(i), h, cosSin, lora, attend);
        }
        return h;
    }

    private NDArray embed(long[] tokens, NDManager manager) {
        NDArray ids = manager.create(tokens);
        return weights.embed().embedding(ids);
    }

    /** {@code lm_head(rms_norm(h))} of {@code rows} only, with the head's LoRA delta where an adapter adapts it. */
    NDArray logits(NDArray h, long[] rows, DjlLoraBatch lora, NDManager manager) {
        NDArray normed = headInput(h, rows, manager);
        return lora.addDelta(normed, 0, LoraTarget.LM_HEAD, baseHead(normed));
    }

    /** {@code rms_norm(h)} of {@code rows} only: what the head multiplies. */
    NDArray headInput(NDArray h, long[] rows, NDManager manager) {
        return DjlOps.rmsNorm(h.get(new NDIndex("{}", manager.create(rows))), weights.finalNorm(), eps);
    }

    /** The frozen head's product without an adapter's delta: {@code x @ lm_head^T}. */
    NDArray baseHead(NDArray x) {
        return weights.lmHead().linear(x);
    }

    /** The gradient {@link #baseHead}'s input gets from {@code g}, its output's: {@code g @ lm_head}. */
    NDArray baseHeadBackward(NDArray g) {
        return weights.lmHead().linearBackward(g);
    }

    private NDArray layer(int index, DjlLayer w, NDArray h, NDList cosSin, DjlLoraBatch lora, Attend attend) {
        return output(index, w, open(index, w, h, cosSin, lora, attend), lora);
    }

    /** The layer's output from its open form: the residual plus the down projection of the SwiGLU product. */
    private static NDArray output(int index, DjlLayer w, Open open, DjlLoraBatch lora) {
        return open.residual().add(lora.linear(open.gated(), index, LoraTarget.DOWN_PROJ, w.down(), null));
    }

    /**
     * A layer up to its down projection: the residual after attention, and the gate and up projections' outputs
     * (LoRA deltas added) whose SwiGLU product the down projection reads.
     */
    private record Open(NDArray residual, NDArray gate, NDArray up) {

        /** {@code silu(gate) * up}, computed on each call. */
        NDArray gated() {
            return DjlOps.swiGlu(gate, up);
        }
    }

    private Open open(int index, DjlLayer w, NDArray h, NDList cosSin, DjlLoraBatch lora, Attend attend) {
        NDArray r = attended(index, w, h, cosSin, lora, attend);
        NDArray y = DjlOps.rmsNorm(r, w.postNorm(), eps);
        return new Open(r, lora.linear(y, index, LoraTarget.GATE_PROJ, w.gate(), null),
                lora.linear(y, index, LoraTarget.UP_PROJ, w.up(), null));
    }

    /** A layer's attention half: {@code h + o_proj(attention(...))}, the residual the MLP's norm reads. */
    private NDArray attended(int index, DjlLayer w, NDArray h, NDList cosSin, DjlLoraBatch lora, Attend attend) {
        long tokens = h.getShape().get(0);
        NDArray x = DjlOps.rmsNorm(h, w.inputNorm(), eps);
        NDArray q = lora.linear(x, index, LoraTarget.Q_PROJ, w.q(), w.qBias())
                .reshape(tokens, config.numAttentionHeads(), config.headDim());
        NDArray k = lora.linear(x, index, LoraTarget.K_PROJ, w.k(), w.kBias())
                .reshape(tokens, config.numKeyValueHeads(), config.headDim());
        NDArray v = lora.linear(x, index, LoraTarget.V_PROJ, w.v(), w.vBias())
                .reshape(tokens, config.numKeyValueHeads(), config.headDim());
        if (config.qkNorm()) {
            // Qwen3 normalises each head's query and key over head_dim before the rotary embedding.
            q = DjlOps.rmsNorm(q, w.qNorm(), eps);
            k = DjlOps.rmsNorm(k, w.kNorm(), eps);
        }
        NDArray attended = attend.apply(index, rope.apply(q, cosSin), rope.apply(k, cosSin), v);
        return h.add(lora.linear(attended, index, LoraTarget.O_PROJ, w.o(), w.oBias()));
    }

    private List<SequenceLogits> split(DjlPackedBatch batch, float[] flat) {
        int vocab = config.vocabSize();
        List<SequenceLogits> out = new ArrayList<>(batch.size());
        int row = 0;
        for (int i = 0; i < batch.size(); i++) {
            int count = batch.inputs().get(i).allPositions() ? batch.length(i) : 1;
            List<float[]> positions = new ArrayList<>(count);
            for (int j = 0; j < count; j++, row++) {
                positions.add(Arrays.copyOfRange(flat, row * vocab, (row + 1) * vocab));
            }
            float[] last = positions.getLast();
            out.add(new SequenceLogits(last.clone(),
                    batch.inputs().get(i).allPositions() ? positions : List.of()));
        }
        return out;
    }
}
