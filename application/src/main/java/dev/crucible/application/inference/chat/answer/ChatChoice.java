package dev.crucible.application.inference.chat.answer;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One finished choice of a completion.
 *
 * @param index     the choice
 * @param content   the text outside tool calls; empty when tool calls left none
 * @param toolCalls the calls parsed from the output; empty without tool calling
 * @param logprobs  each generated token's logprobs, when asked
 * @param finish    how it ended
 * @param tokenIds  the generated tokens
 */
public record ChatChoice(int index, Optional<String> content, List<ChatToolCall> toolCalls,
        List<ChatPositionLogprobs> logprobs, ChatFinish finish, List<Integer> tokenIds) {

    public ChatChoice {
        Objects.requireNonNull(content, "content");
        toolCalls = List.copyOf(toolCalls);
        logprobs = List.copyOf(logprobs);
        Objects.requireNonNull(finish, "finish");
        tokenIds = List.copyOf(tokenIds);
    }
}
