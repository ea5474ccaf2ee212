package dev.crucible.engine.onnx;

import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.config.RopeScaling;

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
        float[] invFreq = invFreq(config);
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

    /** transformers' {@code rope_init_fn}: one frequency per pair of dimensions. */
    static float[] invFreq(ModelConfig c) {
        int half = c.headDim() / 2;
        double[] f = new double[half];
        for (int i = 0; i < half; i++) {
            f[i] = 1.0 / Math.pow(c.ropeTheta(), 2.0 * i / c.headDim());
        }
        switch (c.ropeScaling()) {
            case RopeScaling.Unscaled u -> { }
            case RopeScaling.Llama3 l -> llama3(f, l);
        }
        float[] out = new float[half];
        for (int i = 0; i < half; i++) {
            out[i] = (float) f[i];
        }
        return out;
    }

    /**
     * Llama 3's rescaling ({@code _compute_llama3_parameters}): wavelengths beyond the low-frequency bound are divided
     * by {@code factor}, those under the high-frequency bound kept, and those between interpolated smoothly.
     */
    private static void llama3(double[] f, RopeScaling.Llama3 s) {
        double lowFreqWavelen = s.originalMaxPositionEmbeddings() / s.lowFreqFactor();
        double highFreqWavelen = s.originalMaxPositionEmbeddings() / s.highFreqFactor();
        for (int i = 0; i < f.length; i++) {
            double wavelen = 2 * Math.PI / f[i];
            if (wavelen > lowFreqWavelen) {
                f[i] = f[i] / s.factor();
            } else if (wavelen >= highFreqWavelen) {
                double smooth = (s.originalMaxPositionEmbeddings() / wavelen - s.lowFreqFactor())
                        / (s.highFreqFactor() - s.lowFreqFactor());
                f[i] = (1 - smooth) * f[i] / s.factor() + smooth * f[i];
            }
        }
    }
}
