package dev.crucible.runtime.generation.stopping;

import java.util.Objects;

/** vLLM's {@code stop_reason}: what exactly ended a sequence, beyond its {@link FinishReason}. */
public sealed interface StopReason permits StopReason.TokenId, StopReason.StopString, StopReason.RepetitionDetected {

    /** A {@code stop_token_ids} entry (or a generation-config EOS id other than the tokenizer's) was generated. */
    record TokenId(int tokenId) implements StopReason {
    }

    /** A stop string appeared in the generated text. */
    record StopString(String stop) implements StopReason {
        /** Rejects null. */
        public StopString {
            Objects.requireNonNull(stop, "stop");
        }
    }

    /** Repetition detection ended the sequence; on the wire the string {@code "repetition_detected"}. */
    record RepetitionDetected() implements StopReason {
    }
}
