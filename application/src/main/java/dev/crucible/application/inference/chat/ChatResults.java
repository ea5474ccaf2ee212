package dev.crucible.application.inference.chat;

import dev.crucible.application.inference.chat.answer.ChatChoice;
import dev.crucible.application.inference.chat.answer.ChatCompletion;
import dev.crucible.application.inference.chat.answer.ChatFinish;
import dev.crucible.application.inference.chat.answer.ChatLogprob;
import dev.crucible.application.inference.chat.answer.ChatPositionLogprobs;
import dev.crucible.application.inference.chat.answer.ChatRankedLogprob;
import dev.crucible.application.inference.chat.answer.ChatStart;
import dev.crucible.application.inference.chat.answer.ChatToolCall;
import dev.crucible.application.inference.chat.answer.ChatToolCallDelta;
import dev.crucible.application.inference.chat.answer.ChatUsage;
import dev.crucible.runtime.generation.stopping.Finish;
import dev.crucible.runtime.generation.GenerationResult;
import dev.crucible.runtime.generation.logprobs.PositionLogprobs;
import dev.crucible.runtime.generation.logprobs.PromptLogprobs;
import dev.crucible.runtime.generation.SequenceOutput;
import dev.crucible.runtime.generation.stopping.StopReason;
import dev.crucible.runtime.generation.logprobs.TokenLogprob;
import dev.crucible.runtime.tools.ToolCallDelta;
import dev.crucible.runtime.tools.ToolCallOutput;
import dev.crucible.runtime.tools.ToolCalling;
import java.util.List;
import java.util.Optional;

/**
 * The runtime's generation results as the use case's own records, so the HTTP adapter never sees the runtime. A
 * finished choice's text is parsed for tool calls here, and its finish reason is the tool calling's.
 */
final class ChatResults {

    private ChatResults() {
    }

    static ChatCompletion completion(ChatStart start, GenerationResult result, Optional<ToolCalling> toolCalling) {
        List<ChatChoice> choices = result.sequences().stream().map(s -> choice(s, toolCalling)).toList();
        return new ChatCompletion(start, choices, usage(result),
                result.promptLogprobs().map(ChatResults::promptLogprobs));
    }

    /** A finished generation's usage: its prompt, all its sequences' tokens, and what the prefix cache served. */
    static ChatUsage usage(GenerationResult result) {
        return new ChatUsage(result.promptTokens(), result.completionTokens(), result.cachedTokens());
    }

    private static ChatChoice choice(SequenceOutput sequence, Optional<ToolCalling> toolCalling) {
        ToolCallOutput tools = toolCalling.map(t -> t.extract(sequence.text()))
                .orElseGet(() -> new ToolCallOutput(Optional.of(sequence.text()), List.of()));
        String reason = toolCalling.map(t -> t.finishReason(sequence.finish().reason(), tools.called(), false))
                .orElse(sequence.finish().reason().wireName());
        return new ChatChoice(sequence.index(), tools.content(),
                tools.calls().stream().map(c -> new ChatToolCall(c.id(), c.name(), c.arguments())).toList(),
                logprobs(sequence.logprobs()), finish(reason, sequence.finish()), sequence.tokenIds());
    }

    /** {@code finish} under {@code reason}, which the tool calling may have renamed. */
    static ChatFinish finish(String reason, Finish finish) {
        return new ChatFinish(reason, finish.stopReason().flatMap(stop -> switch (stop) {
            case StopReason.TokenId id -> Optional.of(new ChatFinish.StopToken(id.tokenId()));
            case StopReason.StopString s -> Optional.of(new ChatFinish.StopString(s.stop()));
            case StopReason.RepetitionDetected r -> Optional.of(new ChatFinish.RepetitionDetected());
        }));
    }

    static List<ChatPositionLogprobs> logprobs(List<PositionLogprobs> positions) {
        return positions.stream()
                .map(p -> new ChatPositionLogprobs(logprob(p.sampled()), p.top().stream().map(ChatResults::logprob).toList()))
                .toList();
    }

    static ChatToolCallDelta toolCallDelta(ToolCallDelta delta) {
        return new ChatToolCallDelta(delta.index(), delta.id(), delta.name(), delta.arguments());
    }

    private static List<List<ChatRankedLogprob>> promptLogprobs(List<PromptLogprobs> positions) {
        return positions.stream().map(p -> p.entries().stream()
                .map(e -> new ChatRankedLogprob(logprob(e.token()), e.rank())).toList()).toList();
    }

    private static ChatLogprob logprob(TokenLogprob t) {
        return new ChatLogprob(t.tokenId(), t.token(), t.logprob());
    }
}
