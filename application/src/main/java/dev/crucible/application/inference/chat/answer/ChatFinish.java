package dev.crucible.application.inference.chat.answer;

import java.util.Objects;
import java.util.Optional;

/**
 * How a choice ended.
 *
 * @param reason     vLLM's finish reason: {@code stop}, {@code length}, {@code repetition}, {@code abort}, or
 *                   {@code tool_calls} when the tool calling says the choice called tools
 * @param stopReason what stopped it, when a stop token, a stop string or repetition detection did
 */
public record ChatFinish(String reason, Optional<StopCause> stopReason) {

    public ChatFinish {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(stopReason, "stopReason");
    }

    /** The token id, the stop string or the repetition that ended a choice (vLLM's {@code stop_reason}). */
    public sealed interface StopCause permits StopToken, StopString, RepetitionDetected {
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

    /** Repetition detection ended the choice; vLLM's {@code stop_reason} is then {@code "repetition_detected"}. */
    public record RepetitionDetected() implements StopCause {
    }
}
