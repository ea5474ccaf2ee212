package dev.crucible.application.inference.chat.answer;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One step of one streamed choice. With tool calling, text that belongs to a tool call comes as {@code toolCalls}
 * pieces instead of {@code content}.
 *
 * @param index     the choice
 * @param content   the new visible text (may be empty)
 * @param toolCalls the new tool-call pieces; empty without tool calling
 * @param tokenIds  the tokens of this step
 * @param logprobs  their logprobs, when asked
 * @param finish    present on the choice's last delta
 * @param usage     the prompt's tokens and this choice's tokens so far, this step included
 */
public record ChatDelta(int index, String content, List<ChatToolCallDelta> toolCalls, List<Integer> tokenIds,
        List<ChatPositionLogprobs> logprobs, Optional<ChatFinish> finish, ChatUsage usage) {

    public ChatDelta {
        Objects.requireNonNull(content, "content");
        toolCalls = List.copyOf(toolCalls);
        tokenIds = List.copyOf(tokenIds);
        logprobs = List.copyOf(logprobs);
        Objects.requireNonNull(finish, "finish");
        Objects.requireNonNull(usage, "usage");
    }

    /**
     * Whether the step carries nothing: no token, no text, no tool-call piece and no finish. Such a step still opens
     * its choice when it is the choice's first.
     */
    public boolean empty() {
        return content.isEmpty() && toolCalls.isEmpty() && tokenIds.isEmpty() && finish.isEmpty();
    }
}
