package dev.crucible.application.inference.generation;

import java.util.List;

/**
 * A finished request.
 *
 * @param promptTokens the prompt's length ({@code usage.prompt_tokens})
 * @param sequences    the {@code n} sequences, ordered by index
 */
public record GenerationResult(int promptTokens, List<SequenceOutput> sequences) {

    /** Copies the list. */
    public GenerationResult {
        sequences = List.copyOf(sequences);
    }

    /** The generated tokens of all sequences ({@code usage.completion_tokens}). */
    public int completionTokens() {
        return sequences.stream().mapToInt(s -> s.tokenIds().size()).sum();
    }
}
