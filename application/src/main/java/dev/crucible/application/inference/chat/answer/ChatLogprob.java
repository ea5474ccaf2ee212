package dev.crucible.application.inference.chat.answer;

import java.util.Objects;

/** One token's log-probability: its id, its decoded text and the (unclamped) logprob. */
public record ChatLogprob(int tokenId, String token, double logprob) {

    public ChatLogprob {
        Objects.requireNonNull(token, "token");
    }
}
