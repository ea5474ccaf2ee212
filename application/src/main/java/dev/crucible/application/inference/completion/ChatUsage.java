package dev.crucible.application.inference.completion;

import dev.crucible.runtime.generation.GenerationResult;

/**
 * Tokens a completion read and wrote (so far, on a streamed delta).
 *
 * @param cachedTokens the prompt's tokens served from the prefix cache, a part of {@code promptTokens}
 */
public record ChatUsage(int promptTokens, int completionTokens, int cachedTokens) {

    /** Usage with no cached prompt tokens. */
    public ChatUsage(int promptTokens, int completionTokens) {
        this(promptTokens, completionTokens, 0);
    }

    /** A finished generation's usage: its prompt and all its sequences' tokens. */
    static ChatUsage of(GenerationResult result) {
        // 0 cached tokens until prefix caching reports how many prompt tokens it reused
        return new ChatUsage(result.promptTokens(), result.completionTokens(), 0);
    }
}
