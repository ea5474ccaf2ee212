package dev.crucible.runtime.generation.sampling;

import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * One sampled token, with its logprobs when they were asked for. Logprobs are from the raw model logits (vLLM's
 * default {@code raw_logprobs}): temperature, penalties, bias and masks do not change them.
 *
 * @param logprob the sampled token's log-probability; empty when logprobs were not asked for
 * @param top     exactly {@code logprobs} entries in vLLM's chat order: the sampled token first, then the most likely
 *                other tokens by rank (ties by lower id); empty when logprobs were not asked for or are 0
 */
public record Sample(int tokenId, OptionalDouble logprob, List<Candidate> top) {

    /** Rejects nulls; copies the list. */
    public Sample {
        Objects.requireNonNull(logprob, "logprob");
        top = List.copyOf(top);
    }
}
