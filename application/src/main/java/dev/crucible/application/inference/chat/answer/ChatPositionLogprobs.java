package dev.crucible.application.inference.chat.answer;

import java.util.List;
import java.util.Objects;

/** The sampled token of one generated position and the most likely alternatives there, most likely first. */
public record ChatPositionLogprobs(ChatLogprob sampled, List<ChatLogprob> top) {

    public ChatPositionLogprobs {
        Objects.requireNonNull(sampled, "sampled");
        top = List.copyOf(top);
    }
}
