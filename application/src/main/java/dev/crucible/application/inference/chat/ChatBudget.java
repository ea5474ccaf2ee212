package dev.crucible.application.inference.chat;

/**
 * What a chat request may use of the model's context, as {@link ChatLimits} works it out.
 *
 * @param promptTokens how many prompt tokens to keep (the last ones: vLLM truncates on the left), at most the
 *                     prompt's length
 * @param maxTokens    the effective output budget, at least 1
 */
public record ChatBudget(int promptTokens, int maxTokens) {
}
