package dev.crucible.application.inference.chat.ask;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The log-probability fields of a chat request.
 *
 * @param logprobs               whether to return each sampled token's log-probability
 * @param topLogprobs            alternatives per token, 0 by default; {@code -1} means the whole vocabulary
 * @param promptLogprobs         alternatives per prompt token, empty for none; {@code -1} means the whole vocabulary
 * @param returnTokensAsTokenIds empty for the server's setting
 * @param returnTokenIds         empty for the server's setting (off)
 */
public record ChatLogprobs(boolean logprobs, int topLogprobs, OptionalInt promptLogprobs,
        Optional<Boolean> returnTokensAsTokenIds, Optional<Boolean> returnTokenIds) {

    public ChatLogprobs {
        Objects.requireNonNull(promptLogprobs, "promptLogprobs");
        Objects.requireNonNull(returnTokensAsTokenIds, "returnTokensAsTokenIds");
        Objects.requireNonNull(returnTokenIds, "returnTokenIds");
    }

    /** No logprobs of any kind. */
    public static ChatLogprobs defaults() {
        return new ChatLogprobs(false, 0, OptionalInt.empty(), Optional.empty(), Optional.empty());
    }
}
