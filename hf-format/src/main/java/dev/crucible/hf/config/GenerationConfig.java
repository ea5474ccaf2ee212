package dev.crucible.hf.config;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * The model's generation defaults from {@code generation_config.json}; every field is optional because the file and
 * each key are. Range checks belong to whoever turns these into sampling parameters. Immutable.
 *
 * @param eosTokenIds end-of-sequence ids (an int or a list in the file), possibly empty
 */
public record GenerationConfig(OptionalInt bosTokenId, List<Integer> eosTokenIds, OptionalInt padTokenId,
        Optional<Boolean> doSample, OptionalDouble temperature, OptionalDouble topP, OptionalInt topK,
        OptionalDouble minP, OptionalDouble repetitionPenalty, OptionalInt maxNewTokens, OptionalInt maxLength) {

    /** The configuration of a model without {@code generation_config.json}. */
    public static final GenerationConfig NONE = new GenerationConfig(OptionalInt.empty(), List.of(),
            OptionalInt.empty(), Optional.empty(), OptionalDouble.empty(), OptionalDouble.empty(), OptionalInt.empty(),
            OptionalDouble.empty(), OptionalDouble.empty(), OptionalInt.empty(), OptionalInt.empty());

    /** Rejects nulls; copies the id list. */
    public GenerationConfig {
        Objects.requireNonNull(bosTokenId, "bosTokenId");
        eosTokenIds = List.copyOf(eosTokenIds);
        Objects.requireNonNull(padTokenId, "padTokenId");
        Objects.requireNonNull(doSample, "doSample");
        Objects.requireNonNull(temperature, "temperature");
        Objects.requireNonNull(topP, "topP");
        Objects.requireNonNull(topK, "topK");
        Objects.requireNonNull(minP, "minP");
        Objects.requireNonNull(repetitionPenalty, "repetitionPenalty");
        Objects.requireNonNull(maxNewTokens, "maxNewTokens");
        Objects.requireNonNull(maxLength, "maxLength");
    }
}
