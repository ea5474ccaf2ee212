package dev.crucible.application.inference.chat.answer;

import java.util.Objects;

/** A prompt token's logprob with its rank in the vocabulary (1 is the most likely). */
public record ChatRankedLogprob(ChatLogprob token, long rank) {

    public ChatRankedLogprob {
        Objects.requireNonNull(token, "token");
    }
}
