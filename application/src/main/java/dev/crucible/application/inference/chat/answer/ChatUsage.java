package dev.crucible.application.inference.chat.answer;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * Tokens a completion read and wrote (so far, on a streamed delta).
 *
 * @param cachedTokens of the prompt tokens, those restored from the prefix cache instead of computed (a multiple of
 *                     the cache's block size); empty where not known (a streamed delta's running count)
 */
public record ChatUsage(int promptTokens, int completionTokens, OptionalInt cachedTokens) {

    /** Rejects a null {@code cachedTokens}. */
    public ChatUsage {
        Objects.requireNonNull(cachedTokens, "cachedTokens");
    }

    /** Usage of a finished completion, with its cached tokens. */
    public ChatUsage(int promptTokens, int completionTokens, int cachedTokens) {
        this(promptTokens, completionTokens, OptionalInt.of(cachedTokens));
    }

    /** Usage whose cached tokens are not known. */
    public ChatUsage(int promptTokens, int completionTokens) {
        this(promptTokens, completionTokens, OptionalInt.empty());
    }
}
