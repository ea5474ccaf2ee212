package dev.crucible.engine.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.config.RopeFrequencies;

/**
 * Rotary position embedding in the Hugging Face convention: the head's first and second halves are rotated as pairs
 * ({@code rotate_half}), with frequencies {@code inv_freq[i] = theta^(-2i/head_dim)}, rescaled by Llama 3's scheme
 * when the config says so. Immutable.
 */
final class DjlRope {

    private final float[] invFreq;
    private final int headDim;

    DjlRope(ModelConfig config) {
        this.headDim = config.headDim();
        this.invFreq = RopeFrequencies.of(config);
    }

    /**
     * {@code cos} and {@code sin} of each position's angles, {@code [positions, 1, head_dim]} (broadcast over heads),
     * the sines of the head's first half negated: {@code rotate_half}'s sign folded into the table, so that
     * {@link #apply} needs no negation per layer (the products are the same floats).
     */
    NDList cosSin(NDManager manager, int[] positions) {
        float[] cos = new float[positions.length * headDim];
        float[] sin = new float[cos.length];
        int half = headDim / 2;
        for (int t = 0; t < positions.length; t++) {
            for (int i = 0; i < headDim; i++) {
                double angle = (double) positions[t] * invFreq[i % half];
                cos[t * headDim + i] = (float) Math.cos(angle);
                float sine = (float) Math.sin(angle);
                sin[t * headDim + i] = i < half ? -sine : sine;
            }
        }
        Shape shape = new Shape(positions.length, 1, headDim);
        return new NDList(manager.create(cos, shape), manager.create(sin, shape));
    }

    /**
     * {@code x * cos + rotate_half(x) * sin} for {@code x} of shape {@code [tokens, heads, head_dim]}. The halves are
     * swapped as one flip of a {@code [.., 2, head_dim / 2]} view (the sign is in the sine table): one copy forward and
     * one backward, where two slices and a concatenation cost a copy forward and, backward, a zero-filled array, a copy
     * and a sum per slice.
     */
    NDArray apply(NDArray x, NDList cosSin) {
        Shape shape = x.getShape();
        NDArray rotated = x.reshape(shape.get(0), shape.get(1), 2, headDim / 2).flip(2).reshape(shape);
        return x.mul(cosSin.get(0)).add(rotated.mul(cosSin.get(1)));
    }
}
