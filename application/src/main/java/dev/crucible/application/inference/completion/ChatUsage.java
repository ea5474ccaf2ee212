package dev.crucible.application.inference.completion;

/** Tokens a completion read and wrote (so far, on a streamed delta). */
public record ChatUsage(int promptTokens, int completionTokens) {
}
