package dev.crucible.engine.onnx;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import dev.crucible.engine.spi.LoraAdapter;
import dev.crucible.engine.spi.RunnerResource;
import dev.crucible.engine.spi.RunnerResources;
import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.peft.LoraConfig;
import dev.crucible.hf.peft.LoraTarget;
import dev.crucible.hf.peft.LoraWeights;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;

/**
 * A LoRA adapter's matrices, ready to feed the decoder graph's LoRA inputs: per layer and adapted target the arrays
 * ({@code A [r, in]}, {@code B [out, r]} with the scaling multiplied in) for stacking with other sequences' adapters,
 * and tensors {@code [1, r, in]} and {@code [1, out, r]} over direct copies for runs in which every sequence uses this
 * adapter (they broadcast over the batch, so such a run copies nothing). Closed through the runner, like a cache.
 */
final class OnnxLoraAdapter extends RunnerResource implements LoraAdapter {

    private final LoraWeights weights;
    private final float[][][] scaledB;
    private final OnnxTensor[][] aTensors;
    private final OnnxTensor[][] bTensors;

    private OnnxLoraAdapter(RunnerResources owner, LoraWeights weights, OnnxTensor[][] a, OnnxTensor[][] b) {
        super(owner);
        this.weights = weights;
        // B times the scaling, once: mixed batches read it on every forward
        this.scaledB = new float[weights.b().length][LoraTarget.values().length][];
        for (int layer = 0; layer < scaledB.length; layer++) {
            for (LoraTarget t : weights.config().targets()) {
                if (!t.inLayer(layer)) {
                    continue;
                }
                scaledB[layer][t.ordinal()] = weights.scaledB(layer, t);
            }
        }
        this.aTensors = a;
        this.bTensors = b;
    }

    static OnnxLoraAdapter of(RunnerResources owner, OrtEnvironment env, LoraWeights w, ModelConfig model)
            throws OrtException {
        int layers = model.numHiddenLayers();
        OnnxTensor[][] a = new OnnxTensor[layers][LoraTarget.values().length];
        OnnxTensor[][] b = new OnnxTensor[layers][LoraTarget.values().length];
        OnnxLoraAdapter adapter = new OnnxLoraAdapter(owner, w, a, b);
        try {
            int r = w.config().r();
            for (int layer = 0; layer < layers; layer++) {
                for (LoraTarget t : w.config().targets()) {
                    if (!t.inLayer(layer)) {
                        continue;
                    }
                    a[layer][t.ordinal()] = tensor(env, w.a()[layer][t.ordinal()], 1, r, t.inFeatures(model));
                    b[layer][t.ordinal()] = tensor(env, adapter.scaledB[layer][t.ordinal()], 1, t.outFeatures(model),
                            r);
                }
            }
        } catch (OrtException | RuntimeException e) {
            adapter.free();
            throw e;
        }
        return adapter;
    }

    private static OnnxTensor tensor(OrtEnvironment env, float[] values, long... shape) throws OrtException {
        FloatBuffer direct = ByteBuffer.allocateDirect(values.length * Float.BYTES).order(ByteOrder.nativeOrder())
                .asFloatBuffer().put(values).flip();
        return OnnxTensor.createTensor(env, direct, shape);
    }

    @Override
    public int rank() {
        return weights.config().r();
    }

    @Override
    public double scaling() {
        return weights.config().scaling();
    }

    LoraConfig config() {
        return weights.config();
    }

    /** {@code A [r, in]} of one layer's target, row-major; null when the adapter leaves the target alone. */
    float[] a(int layer, LoraTarget target) {
        return weights.a()[layer][target.ordinal()];
    }

    /** {@code scaling * B [out, r]}, row-major; null when the adapter leaves the target alone. */
    float[] scaledB(int layer, LoraTarget target) {
        return scaledB[layer][target.ordinal()];
    }

    /** The {@code [1, r, in]} tensor of {@link #a}; null when not adapted. */
    OnnxTensor aTensor(int layer, LoraTarget target) {
        return aTensors[layer][target.ordinal()];
    }

    /** The {@code [1, out, r]} tensor of {@link #scaledB}; null when not adapted. */
    OnnxTensor bTensor(int layer, LoraTarget target) {
        return bTensors[layer][target.ordinal()];
    }

    /** Frees the tensors. */
    @Override
    protected void free() {
        for (int layer = 0; layer < aTensors.length; layer++) {
            for (int t = 0; t < aTensors[layer].length; t++) {
                if (aTensors[layer][t] != null) {
                    aTensors[layer][t].close();
                }
                if (bTensors[layer][t] != null) {
                    bTensors[layer][t].close();
                }
            }
        }
    }
}
