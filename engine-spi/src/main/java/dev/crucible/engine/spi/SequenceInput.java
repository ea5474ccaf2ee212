package dev.crucible.engine.spi;

import java.util.Objects;

/**
 * One sequence's part of a forward batch: its new token ids (a prefill chunk, or one token when decoding) and the
 * cache holding the tokens before them. The ids are copied on construction and on access, so the record is immutable.
 *
 * @param cache        the sequence's cache; the new tokens take positions {@code cache.length()} onwards
 * @param tokenIds     the new token ids, at least one; each must be in {@code [0, vocabSize)} (the runner checks)
 * @param allPositions whether to return the logits of every new position (for prompt logprobs), not only the last
 */
public record SequenceInput(KvCache cache, int[] tokenIds, boolean allPositions) {

    /** Rejects a null cache and an empty token list; copies the ids. */
    public SequenceInput {
        Objects.requireNonNull(cache, "cache");
        if (tokenIds == null || tokenIds.length == 0) {
            throw new IllegalArgumentException("tokenIds must hold at least one token, got "
                    + (tokenIds == null ? "null" : "none"));
        }
        tokenIds = tokenIds.clone();
    }

    /** The new tokens of one sequence, asking only for the last position's logits. */
    public static SequenceInput of(KvCache cache, int... tokenIds) {
        return new SequenceInput(cache, tokenIds, false);
    }

    /** A copy of the new token ids. */
    @Override
    public int[] tokenIds() {
        return tokenIds.clone();
    }

    /** The number of new tokens. */
    public int length() {
        return tokenIds.length;
    }

    /** The new token id at {@code index}, without copying. */
    public int tokenId(int index) {
        return tokenIds[index];
    }
}
