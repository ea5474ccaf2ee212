package dev.crucible.runtime.generation.beam;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * How one beam search runs (vLLM's {@code BeamSearchParams}).
 *
 * @param width         how many beams live at each step and how many are returned (the request's {@code n}), at least 1
 * @param maxTokens     the most tokens a beam generates, at least 1; the search takes at most this many steps
 * @param lengthPenalty the exponent of the length in the score {@code cum_logprob / length^lengthPenalty}; finite
 * @param eosTokenId    the token that finishes a beam; empty under {@code ignore_eos} (or for a model without one),
 *                      when every beam runs to {@code maxTokens}
 */
public record BeamSearchParams(int width, int maxTokens, double lengthPenalty, OptionalInt eosTokenId) {

    /** Rejects a width or budget below 1 and a non-finite length penalty. */
    public BeamSearchParams {
        if (width < 1) {
            throw new IllegalArgumentException("width must be at least 1, got " + width);
        }
        if (maxTokens < 1) {
            throw new IllegalArgumentException("maxTokens must be at least 1, got " + maxTokens);
        }
        if (!Double.isFinite(lengthPenalty)) {
            throw new IllegalArgumentException("lengthPenalty must be finite, got " + lengthPenalty);
        }
        Objects.requireNonNull(eosTokenId, "eosTokenId");
    }

    /** How many candidates each live beam contributes per step: twice the width, as vLLM and HF transformers do. */
    public int candidatesPerBeam() {
        return 2 * width;
    }
}
