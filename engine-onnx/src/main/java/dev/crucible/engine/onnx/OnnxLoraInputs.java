package dev.crucible.engine.onnx;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.peft.LoraTarget;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.List;
import java.util.Map;

/**
 * The LoRA inputs of one run of the LoRA decoder graph: per layer and target {@code A} as {@code [rows|1, r, in]} and
 * {@code scaling * B} as {@code [rows|1, out, r]}, which the graph applies row by row with batched matrix products.
 * When every sequence of the run uses one adapter, or none, that adapter's own tensors (or zeros of rank 1) are passed
 * and broadcast over the rows: nothing is copied. Otherwise each row gets its own adapter's matrices, zero-padded to
 * the largest rank in the run (zeros add exactly nothing), or zeros for a base-model row. Rows not in the forward
 * batch (a decoding run's bystanders) take whatever is cheapest: their logits are thrown away. The unembedding's
 * ({@code lm_head}) inputs are the same per logit row instead of per batch row. Owns the zero tensors;
 * not thread-safe (used under the runner's lock).
 */
final class OnnxLoraInputs implements AutoCloseable {

    private final ModelConfig model;
    private final OrtEnvironment env;
    private final OnnxTensor[] zeroA = new OnnxTensor[LoraTarget.values().length];
    private final OnnxTensor[] zeroB = new OnnxTensor[LoraTarget.values().length];

    OnnxLoraInputs(ModelConfig model, OrtEnvironment env) throws OrtException {
        this.model = model;
        this.env = env;
        for (LoraTarget t : LoraTarget.values()) {
            zeroA[t.ordinal()] = OnnxTensor.createTensor(env, direct(t.inFeatures(model)),
                    new long[] {1, 1, t.inFeatures(model)});
            zeroB[t.ordinal()] = OnnxTensor.createTensor(env, direct(t.outFeatures(model)),
                    new long[] {1, t.outFeatures(model), 1});
        }
    }

    static String aName(int layer, LoraTarget target) {
        return "lora." + layer + "." + target.module() + ".a";
    }

    static String bName(int layer, LoraTarget target) {
        return "lora." + layer + "." + target.module() + ".b";
    }

    /**
     * Puts the run's LoRA inputs into {@code inputs}.
     *
     * @param adapters     per row of the run, the adapter of its sequence (null: the base model)
     * @param made         receives the tensors made for this run alone, which the caller closes after the run (also
     *                     when this fails)
     * @param headAdapters per logits row, the adapter of its sequence: the head's ({@code lm_head}) inputs are per
     *                     logits row
     */
    void add(Map<String, OnnxTensor> inputs, List<OnnxTensor> made, OnnxLoraAdapter[] adapters,
            OnnxLoraAdapter[] headAdapters) throws OrtException {
        for (int layer = 0; layer < model.numHiddenLayers(); layer++) {
            for (LoraTarget t : LoraTarget.layerProjections()) {
                put(inputs, made, layer, t, adapters);
            }
        }
        put(inputs, made, 0, LoraTarget.LM_HEAD, headAdapters);
    }

    /** One target's inputs: the one adapter's own tensors (or zeros) when every row shares it, else stacked. */
    private void put(Map<String, OnnxTensor> inputs, List<OnnxTensor> made, int layer, LoraTarget t,
            OnnxLoraAdapter[] adapters) throws OrtException {
        OnnxLoraAdapter shared = adapters[0];
        boolean uniform = true;
        for (OnnxLoraAdapter adapter : adapters) {
            uniform &= adapter == shared;
        }
        if (uniform) {
            boolean adapted = shared != null && shared.aTensor(layer, t) != null;
            inputs.put(aName(layer, t), adapted ? shared.aTensor(layer, t) : zeroA[t.ordinal()]);
            inputs.put(bName(layer, t), adapted ? shared.bTensor(layer, t) : zeroB[t.ordinal()]);
        } else {
            stack(inputs, made, layer, t, adapters);
        }
    }

    private void stack(Map<String, OnnxTensor> inputs, List<OnnxTensor> made, int layer, LoraTarget t,
            OnnxLoraAdapter[] adapters) throws OrtException {
        int rank = 0;
        for (int row = 0; row < adapters.length; row++) {
            if (adapters[row] != null && adapters[row].a(layer, t) != null) {
                rank = Math.max(rank, adapters[row].rank());
            }
        }
        if (rank == 0) {
            inputs.put(aName(layer, t), zeroA[t.ordinal()]);
            inputs.put(bName(layer, t), zeroB[t.ordinal()]);
            return;
        }
        int in = t.inFeatures(model);
        int out = t.outFeatures(model);
        int rows = adapters.length;
        FloatBuffer a = direct(rows * rank * in);
        FloatBuffer b = direct(rows * out * rank);
        for (int row = 0; row < rows; row++) {
            OnnxLoraAdapter adapter = adapters[row];
            if (adapter == null || adapter.a(layer, t) == null) {
                continue;
            }
            int r = adapter.rank();
            a.put(row * rank * in, adapter.a(layer, t));
            float[] scaledB = adapter.scaledB(layer, t);
            for (int o = 0; o < out; o++) {
                b.put((row * out + o) * rank, scaledB, o * r, r);
            }
        }
        OnnxTensor aTensor = OnnxTensor.createTensor(env, a, new long[] {rows, rank, in});
        made.add(aTensor);
        OnnxTensor bTensor = OnnxTensor.createTensor(env, b, new long[] {rows, out, rank});
        made.add(bTensor);
        inputs.put(aName(layer, t), aTensor);
        inputs.put(bName(layer, t), bTensor);
    }

    private static FloatBuffer direct(int floats) {
        return ByteBuffer.allocateDirect(floats * Float.BYTES).order(ByteOrder.nativeOrder()).asFloatBuffer();
    }

    @Override
    public void close() {
        for (LoraTarget t : LoraTarget.values()) {
            zeroA[t.ordinal()].close();
            zeroB[t.ordinal()].close();
        }
    }
}
