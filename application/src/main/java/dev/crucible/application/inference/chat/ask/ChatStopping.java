package dev.crucible.application.inference.chat.ask;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * How long a chat request generates and what stops it.
 *
 * @param maxTokens              the requested output budget: {@code max_completion_tokens} when set, else the
 *                               deprecated {@code max_tokens}; empty for "whatever the context leaves"
 * @param maxTokensParam         the field {@code maxTokens} came from ({@code max_completion_tokens} or
 *                               {@code max_tokens}, the latter when neither was sent), as vLLM names it in messages
 * @param minTokens              tokens to generate before any stop condition may fire, 0 by default
 * @param stop                   stop strings (a single string is a one-element list), none empty, at most 4
 * @param stopTokenIds           stop token ids, duplicates removed (first occurrence kept)
 * @param truncatePromptTokens   keep only the last N prompt tokens; {@code -1} means as many as fit; empty for none
 * @param repetitionDetection    repeated-pattern detection, off by default
 */
public record ChatStopping(OptionalLong maxTokens, String maxTokensParam, long minTokens, List<String> stop,
        List<Integer> stopTokenIds, boolean ignoreEos, boolean includeStopStrInOutput,
        OptionalLong truncatePromptTokens, RepetitionDetection repetitionDetection) {

    public ChatStopping {
        Objects.requireNonNull(maxTokens, "maxTokens");
        Objects.requireNonNull(maxTokensParam, "maxTokensParam");
        stop = List.copyOf(stop);
        stopTokenIds = List.copyOf(new LinkedHashSet<>(stopTokenIds));
        Objects.requireNonNull(truncatePromptTokens, "truncatePromptTokens");
        Objects.requireNonNull(repetitionDetection, "repetitionDetection");
    }

    /** No budget, no stops, no truncation, no repetition detection. */
    public static ChatStopping defaults() {
        return new ChatStopping(OptionalLong.empty(), "max_tokens", 0, List.of(), List.of(), false, false,
                OptionalLong.empty(), RepetitionDetection.OFF);
    }

    /**
     * vLLM's {@code repetition_detection} settings as sent (already checked by the HTTP adapter): stop when the
     * output ends with a pattern of {@code minPatternSize..maxPatternSize} tokens repeated {@code minCount} times.
     */
    public record RepetitionDetection(long maxPatternSize, long minPatternSize, long minCount) {

        /** Detection switched off, vLLM's default. */
        public static final RepetitionDetection OFF = new RepetitionDetection(0, 0, 0);
    }
}
