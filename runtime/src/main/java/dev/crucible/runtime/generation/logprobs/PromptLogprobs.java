package dev.crucible.runtime.generation.logprobs;

import java.util.List;

/**
 * The log-probabilities at one prompt position (vLLM's {@code prompt_logprobs} entry): the actual prompt token first,
 * then the {@code prompt_logprobs} most likely tokens by rank, the actual token not repeated (so N or N+1 entries).
 */
public record PromptLogprobs(List<RankedLogprob> entries) {

    /** Copies the list. */
    public PromptLogprobs {
        entries = List.copyOf(entries);
    }
}
