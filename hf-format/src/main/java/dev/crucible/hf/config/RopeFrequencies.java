package dev.crucible.hf.config;

/**
 * A model's rotary-embedding frequencies, one per pair of dimensions of a head, as transformers computes them
 * ({@code rope_init_fn}), with Llama 3's rescaling when the config asks for it; the same for every engine.
 */
public final class RopeFrequencies {

    private RopeFrequencies() {
    }

    /** {@code 1 / theta^(2i / head_dim)} for each pair {@code i}, rescaled as {@link ModelConfig#ropeScaling()} says. */
    public static float[] of(ModelConfig c) {
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
