package dev.crucible.runtime.generation;

/** Why a sequence ended, as vLLM's {@code finish_reason} names it. */
public enum FinishReason {
    /** EOS, a stop token id or a stop string. */
    STOP("stop"),
    /** {@code max_tokens} or the context length was reached. */
    LENGTH("length"),
    /** {@code repetition_detection} found a repeating pattern. */
    REPETITION("repetition"),
    /** The caller cancelled the request. */
    ABORT("abort");

    private final String wireName;

    FinishReason(String wireName) {
        this.wireName = wireName;
    }

    /** The OpenAI/vLLM string: {@code stop}, {@code length}, {@code repetition} or {@code abort}. */
    public String wireName() {
        return wireName;
    }
}
