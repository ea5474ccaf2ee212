package dev.crucible.domain.completion;

/**
 * The tokens a stored completion read and wrote, as its answer reported them.
 *
 * @param prompt     tokens of the prompt, at least 0
 * @param completion tokens generated over all choices, at least 0
 */
public record CompletionTokens(long prompt, long completion) {

    public CompletionTokens {
        if (prompt < 0 || completion < 0) {
            throw new IllegalArgumentException("token counts must be at least 0, got " + prompt + ", " + completion);
        }
    }

    public long total() {
        return prompt + completion;
    }
}
