package dev.crucible.runtime.generation.stopping;

import java.util.Objects;
import java.util.OptionalInt;
import java.util.Set;

/**
 * A model's end-of-sequence ids, as vLLM splits them: the tokenizer's EOS ends a sequence with {@code stop_reason}
 * null; the generation config's other EOS ids act as extra {@code stop_token_ids} (so {@code stop_reason} is the id).
 * Both are ignored under {@code ignore_eos}.
 *
 * @param eosTokenId      the tokenizer's EOS id, if it has one
 * @param extraEosTokenIds the generation config's EOS ids other than {@code eosTokenId}
 */
public record EndOfSequence(OptionalInt eosTokenId, Set<Integer> extraEosTokenIds) {

    /** Rejects nulls; copies the set and drops the primary id from it. */
    public EndOfSequence {
        Objects.requireNonNull(eosTokenId, "eosTokenId");
        extraEosTokenIds = eosTokenId.isPresent()
                ? Set.copyOf(extraEosTokenIds.stream().filter(id -> id != eosTokenId.getAsInt()).toList())
                : Set.copyOf(extraEosTokenIds);
    }

    /** A model whose tokenizer's EOS is {@code eos} and whose generation config lists {@code configEos}. */
    public static EndOfSequence of(int eos, Set<Integer> configEos) {
        return new EndOfSequence(OptionalInt.of(eos), configEos);
    }
}
