package dev.crucible.engine.onnx;

import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.config.RopeFrequencies;

/**
 * The rotary tables {@code GroupQueryAttention} reads with {@code do_rotary=1}: {@code cos} and {@code sin} of
 * {@code position * inv_freq[i]}, {@code [positions, head_dim / 2]}, in the Hugging Face convention
 * ({@code inv_freq[i] = theta^(-2i/head_dim)}, halves rotated as pairs, so {@code rotary_interleaved=0}), rescaled by
 * Llama 3's scheme when the config says so.
 *
 * @param cos row-major {@code [positions, head_dim / 2]}
 * @param sin likewise
 */
record OnnxRope(float[] cos, float[] sin, int positions, int half) {

    static OnnxRope of(ModelConfig config, int positions) {
        float[] invFreq = RopeFrequencies.of(config);
        int half = invFreq.length;
        float[] cos = new float[positions * half];
        float[] sin = new float[cos.length];
        for (int p = 0; p < positions; p++) {
            for (int i = 0; i < half; i++) {
                // The angle in double from float frequencies, as the djl engine computes it.
                double angle = (double) p * invFreq[i];
                cos[p * half + i] = (float) Math.cos(angle);
                sin[p * half + i] = (float) Math.sin(angle);
            }
        }
        return new OnnxRope(cos, sin, positions, half);
    }

}
