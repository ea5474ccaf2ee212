package dev.crucible.runtime.generation.logprobs;

import java.util.Objects;

/**
 * A token's log-probability at a prompt position with its rank ({@code 1} for the most likely token; a token's rank
 * counts the tokens at least as likely as it, itself included, as vLLM's sampler does).
 */
public record RankedLogprob(TokenLogprob token, long rank) {

    /** Rejects null. */
    public RankedLogprob {
        Objects.requireNonNull(token, "token");
    }
}
