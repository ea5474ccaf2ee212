package dev.crucible.hf.tokenizer;

import java.util.Objects;

/**
 * A token matched whole in the input before BPE runs (e.g. {@code <|im_start|>}). Special tokens are dropped by a
 * decode that skips special tokens; non-special ones (Qwen's {@code <think>}) are kept.
 */
public record AddedToken(String content, boolean special) {

    /** Rejects an empty content. */
    public AddedToken {
        Objects.requireNonNull(content, "content");
        if (content.isEmpty()) {
            throw new IllegalArgumentException("added token content must not be empty");
        }
    }
}
