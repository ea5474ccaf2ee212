package dev.crucible.runtime.generation.logprobs;

import java.util.List;
import java.util.Objects;

/**
 * The logprobs of one generated position.
 *
 * @param sampled the token that was generated
 * @param top     exactly {@code logprobs} alternatives in vLLM's chat order: the sampled token first, then the most
 *                likely others by rank
 */
public record PositionLogprobs(TokenLogprob sampled, List<TokenLogprob> top) {

    /** Rejects nulls; copies the list. */
    public PositionLogprobs {
        Objects.requireNonNull(sampled, "sampled");
        top = List.copyOf(top);
    }
}
