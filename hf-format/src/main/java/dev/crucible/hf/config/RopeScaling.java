package dev.crucible.hf.config;

import dev.crucible.hf.ModelFormatException;

/**
 * How rotary position frequencies are rescaled: not at all ({@code rope_scaling} null or of type "default"), or
 * Llama 3's piecewise scheme. Any other type is refused when the config is read.
 */
public sealed interface RopeScaling {

    /** No rescaling: {@code inv_freq[i] = theta^(-2i/head_dim)}. */
    record Unscaled() implements RopeScaling {
    }

    /**
     * Llama 3.1's scheme ({@code rope_type: "llama3"}): wavelengths longer than
     * {@code originalMaxPositionEmbeddings / lowFreqFactor} are divided by {@code factor}, those shorter than
     * {@code originalMaxPositionEmbeddings / highFreqFactor} are kept, and those between are interpolated smoothly.
     */
    record Llama3(double factor, double lowFreqFactor, double highFreqFactor, int originalMaxPositionEmbeddings)
            implements RopeScaling {

        /** Checks the values as transformers does: positive, and the high-frequency factor above the low one. */
        public Llama3 {
            if (!(factor > 0) || !(lowFreqFactor > 0) || originalMaxPositionEmbeddings <= 0) {
                throw new ModelFormatException("config.json: rope_scaling values must be positive, got factor "
                        + factor + ", low_freq_factor " + lowFreqFactor + ", original_max_position_embeddings "
                        + originalMaxPositionEmbeddings);
            }
            if (!(highFreqFactor > lowFreqFactor)) {
                throw new ModelFormatException("config.json: rope_scaling.high_freq_factor (" + highFreqFactor
                        + ") must be greater than low_freq_factor (" + lowFreqFactor + ")");
            }
        }
    }
}
