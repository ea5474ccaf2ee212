package dev.crucible.application.inference.chat;

import dev.crucible.application.inference.chat.answer.ChatDelta;
import dev.crucible.application.inference.chat.answer.ChatUsage;
import dev.crucible.runtime.generation.GenerationDelta;
import dev.crucible.runtime.generation.GenerationListener;
import dev.crucible.runtime.generation.GenerationResult;
import dev.crucible.runtime.tools.ToolCallStream;
import dev.crucible.runtime.tools.ToolCalling;
import dev.crucible.runtime.tools.ToolStreamDelta;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns the generator's progress into the use case's stream events. With tool calling, each choice's text goes
 * through its own tool-call stream, which splits it into content and tool-call pieces, and a choice's finish reason
 * is the tool calling's ({@code tool_calls} for a choice that streamed calls under "auto" or "required" and stopped).
 * Counts each choice's tokens written so far for the deltas' usage (vLLM's continuous usage counts per choice). Called
 * on the generator's thread only.
 */
final class ChatEventRelay implements GenerationListener {

    private final ChatStreamListener listener;
    private final Optional<ToolCalling> toolCalling;
    private final int promptTokens;
    private final Map<Integer, ToolCallStream> toolStreams = new HashMap<>();
    private final Map<Integer, Integer> choiceTokens = new HashMap<>();

    ChatEventRelay(ChatStreamListener listener, Optional<ToolCalling> toolCalling, int promptTokens) {
        this.listener = listener;
        this.toolCalling = toolCalling;
        this.promptTokens = promptTokens;
    }

    @Override
    public void onDelta(GenerationDelta delta) {
        int completionTokens = choiceTokens.merge(delta.index(), delta.tokenIds().size(), Integer::sum);
        boolean last = delta.finish().isPresent();
        String content = delta.text();
        List<ToolStreamDelta> split = List.of();
        String reason = delta.finish().map(f -> f.reason().wireName()).orElse(null);
        // a step with nothing in it goes through untouched: the tool stream has nothing to split
        boolean empty = delta.text().isEmpty() && delta.tokenIds().isEmpty() && !last;
        if (toolCalling.isPresent() && !empty) {
            ToolCallStream tools = toolStreams.computeIfAbsent(delta.index(), i -> toolCalling.get().stream());
            ToolStreamDelta step = tools.next(delta.text(), last);
            content = step.content();
            split = List.of(step);
            if (last) {
                reason = toolCalling.get().finishReason(delta.finish().get().reason(), tools.calledTools(), true);
            }
        }
        String finishReason = reason;
        listener.onDelta(new ChatDelta(delta.index(), content,
                split.stream().flatMap(s -> s.calls().stream()).map(ChatResults::toolCallDelta).toList(),
                delta.tokenIds(), ChatResults.logprobs(delta.logprobs()),
                delta.finish().map(f -> ChatResults.finish(finishReason, f)),
                new ChatUsage(promptTokens, completionTokens)));
    }

    @Override
    public void onComplete(GenerationResult result) {
        listener.onComplete(ChatResults.usage(result));
    }

    @Override
    public void onFailure(RuntimeException failure) {
        listener.onFailure(failure);
    }
}
