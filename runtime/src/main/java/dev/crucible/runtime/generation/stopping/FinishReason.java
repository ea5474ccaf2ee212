package dev.crucible.runtime.generation.stopping;

import java.util.Locale;

/** Why a sequence ended, as vLLM's {@code finish_reason} names it (the constant's name in lower case). */
public enum FinishReason {
    /** EOS, a stop token id or a stop string. */
    STOP,
    /** {@code max_tokens} or the context length was reached. */
    LENGTH,
    /** {@code repetition_detection} found a repeating pattern. */
    REPETITION,
    /** The caller cancelled the request. */
    ABORT;

    /** The OpenAI/vLLM string: {@code stop}, {@code length}, {@code repetition} or {@code abort}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
