package dev.crucible.runtime.generation.logprobs;

import java.util.Objects;

/**
 * One token's log-probability under the raw model distribution, with how it reads.
 *
 * @param token   the token decoded on its own, special tokens included (a lone partial UTF-8 byte reads U+FFFD)
 * @param bytes   the raw bytes the token stands for ({@code Tokenizer.tokenBytes}); vLLM's chat layer instead sends
 *                the UTF-8 of {@code token}, so the wire mapping chooses
 * @param logprob the natural-log probability, unclamped (the chat layer clamps to -9999)
 */
public record TokenLogprob(int tokenId, String token, byte[] bytes, double logprob) {

    /** Rejects nulls; copies the bytes. */
    public TokenLogprob {
        Objects.requireNonNull(token, "token");
        bytes = bytes.clone();
    }

    /** A copy of the bytes. */
    @Override
    public byte[] bytes() {
        return bytes.clone();
    }
}
