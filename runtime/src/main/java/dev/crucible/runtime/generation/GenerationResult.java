package dev.crucible.runtime.generation;

import dev.crucible.runtime.generation.logprobs.PromptLogprobs;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A finished request.
 *
 * @param promptTokens the prompt's length ({@code usage.prompt_tokens})
 * @param cachedTokens of those, the tokens the first sequence restored from the prefix cache instead of forwarding
 *                     ({@code usage.prompt_tokens_details.cached_tokens}); the other {@code n - 1} sequences always
 *                     copy the first one's prompt and are not counted
 * @param sequences    the {@code n} sequences, ordered by index
 * @param promptLogprobs when asked for, one entry per prompt token after the first (the first has no context):
 *                     entry {@code i} is about prompt token {@code i + 1}
 */
public record GenerationResult(int promptTokens, int cachedTokens, List<SequenceOutput> sequences,
        Optional<List<PromptLogprobs>> promptLogprobs) {

    /** Copies the lists. */
    public GenerationResult {
        sequences = List.copyOf(sequences);
        promptLogprobs = Objects.requireNonNull(promptLogprobs, "promptLogprobs").map(List::copyOf);
    }

    /** A result that reused no cached prefix. */
    public GenerationResult(int promptTokens, List<SequenceOutput> sequences,
            Optional<List<PromptLogprobs>> promptLogprobs) {
        this(promptTokens, 0, sequences, promptLogprobs);
    }

    /** A result without prompt logprobs. */
    public GenerationResult(int promptTokens, List<SequenceOutput> sequences) {
        this(promptTokens, 0, sequences, Optional.empty());
    }

    /** The generated tokens of all sequences ({@code usage.completion_tokens}). */
    public int completionTokens() {
        return sequences.stream().mapToInt(s -> s.tokenIds().size()).sum();
    }
}
