package dev.crucible.engine.spi;

import java.util.Objects;

/**
 * One sequence's part of a forward batch: its new token ids (a prefill chunk, or one token when decoding), the cache
 * holding the tokens before them, and the LoRA adapter it runs with, if any. The ids are copied on construction and
 * on access, so the record is immutable (the cache and adapter are shared handles, not copied).
 *
 * @param cache        the sequence's cache; the new tokens take positions {@code cache.length()} onwards
 * @param tokenIds     the new token ids, at least one; each must be in {@code [0, vocabSize)} (the runner checks)
 * @param allPositions whether to return the logits of every new position (for prompt logprobs), not only the last
 * @param adapter      the LoRA adapter to apply, loaded by the same runner; null for the base model. A sequence should
 *                     use the same adapter (or none) in every forward, since its cache was filled with it
 */
public record SequenceInput(KvCache cache, int[] tokenIds, boolean allPositions, LoraAdapter adapter) {

    /** Rejects a null cache and an empty token list; copies the ids. */
    public SequenceInput {
        Objects.requireNonNull(cache, "cache");
        if (tokenIds == null || tokenIds.length == 0) {
            throw new IllegalArgumentException("tokenIds must hold at least one token, got "
                    + (tokenIds == null ? "null" : "none"));
        }
        tokenIds = tokenIds.clone();
    }

    /** A sequence of the base model (no adapter). */
    public SequenceInput(KvCache cache, int[] tokenIds, boolean allPositions) {
        this(cache, tokenIds, allPositions, null);
    }

    /** The new tokens of one sequence of the base model, asking only for the last position's logits. */
    public static SequenceInput of(KvCache cache, int... tokenIds) {
        return new SequenceInput(cache, tokenIds, false, null);
    }

    /** The new tokens of one sequence run with {@code adapter} (null for the base model), last position only. */
    public static SequenceInput of(KvCache cache, LoraAdapter adapter, int... tokenIds) {
        return new SequenceInput(cache, tokenIds, false, adapter);
    }

    /** This input run with {@code adapter} instead (null for the base model). */
    public SequenceInput withAdapter(LoraAdapter adapter) {
        return new SequenceInput(cache, tokenIds, allPositions, adapter);
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
