package dev.crucible.application.inference.chat.answer;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A finished chat completion, tool calls parsed.
 *
 * @param start          the model name, the request as answered and the prompt's tokens
 * @param choices        one per sequence, by index
 * @param usage          the tokens read and written
 * @param promptLogprobs per prompt token after the first, its logprob entries (the actual token first), when asked
 */
public record ChatCompletion(ChatStart start, List<ChatChoice> choices, ChatUsage usage,
        Optional<List<List<ChatRankedLogprob>>> promptLogprobs) {

    public ChatCompletion {
        Objects.requireNonNull(start, "start");
        choices = List.copyOf(choices);
        Objects.requireNonNull(usage, "usage");
        promptLogprobs = Objects.requireNonNull(promptLogprobs, "promptLogprobs")
                .map(positions -> positions.stream().map(List::copyOf).toList());
    }
}
