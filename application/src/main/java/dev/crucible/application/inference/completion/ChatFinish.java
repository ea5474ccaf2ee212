package dev.crucible.application.inference.completion;

import java.util.Objects;
import java.util.Optional;

/**
 * How a choice ended.
 *
 * @param reason     vLLM's finish reason: {@code stop}, {@code length}, {@code repetition}, {@code abort}, or
 *                   {@code tool_calls} when the tool calling says the choice called tools
 * @param stopReason what stopped it, when a stop token or string did
 */
public record ChatFinish(String reason, Optional<StopCause> stopReason) {

    public ChatFinish {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(stopReason, "stopReason");
    }

    /** The token id or the stop string that ended a choice (vLLM's {@code stop_reason}). */
    public sealed interface StopCause permits StopToken, StopString {
    }

    /** A stop token id, other than end-of-sequence, ended the choice. */
    public record StopToken(int tokenId) implements StopCause {
    }

    /** One of the request's stop strings ended the choice. */
    public record StopString(String stop) implements StopCause {

        public StopString {
            Objects.requireNonNull(stop, "stop");
        }
    }
}
