package dev.crucible.hf.config;

import dev.crucible.hf.ModelFormatException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A decoder-only model's shape and constants, as {@code config.json} gives them. Values are checked on construction;
 * a failure names the {@code config.json} key. Immutable.
 *
 * @param architecture          the transformers class, which fixes the layer layout
 * @param headDim               per-head size; Qwen3 states it, others default to {@code hiddenSize / numAttentionHeads}
 * @param ropeScaling           how rotary frequencies are rescaled (never null)
 * @param attentionBias         the {@code attention_bias} key (absent is false); see {@link #qkvBias()}
 * @param bosTokenId            the beginning-of-sequence id, if stated
 * @param eosTokenIds           the end-of-sequence ids (an int or a list in the file), possibly empty
 * @param torchDtype            the stored weights' dtype name ({@code torch_dtype} or {@code dtype}), if stated
 */
public record ModelConfig(Architecture architecture, int hiddenSize, int intermediateSize, int numHiddenLayers,
        int numAttentionHeads, int numKeyValueHeads, int headDim, int vocabSize, double rmsNormEps, double ropeTheta,
        RopeScaling ropeScaling, int maxPositionEmbeddings, boolean tieWordEmbeddings, boolean attentionBias,
        OptionalInt bosTokenId, List<Integer> eosTokenIds, Optional<String> torchDtype) {

    /** Checks sizes are positive and heads group evenly. */
    public ModelConfig {
        Objects.requireNonNull(architecture, "architecture");
        Objects.requireNonNull(ropeScaling, "ropeScaling");
        Objects.requireNonNull(bosTokenId, "bosTokenId");
        Objects.requireNonNull(torchDtype, "torchDtype");
        eosTokenIds = List.copyOf(eosTokenIds);
        positive("hidden_size", hiddenSize);
        positive("intermediate_size", intermediateSize);
        positive("num_hidden_layers", numHiddenLayers);
        positive("num_attention_heads", numAttentionHeads);
        positive("num_key_value_heads", numKeyValueHeads);
        positive("head_dim", headDim);
        positive("vocab_size", vocabSize);
        positive("max_position_embeddings", maxPositionEmbeddings);
        if (numAttentionHeads % numKeyValueHeads != 0) {
            throw new ModelFormatException("config.json: num_attention_heads (" + numAttentionHeads
                    + ") must be a multiple of num_key_value_heads (" + numKeyValueHeads + ")");
        }
        if (headDim % 2 != 0) {
            throw new ModelFormatException("config.json: head_dim must be even for rotary embeddings, got " + headDim);
        }
        if (!(rmsNormEps > 0) || !(ropeTheta > 0)) {
            throw new ModelFormatException("config.json: rms_norm_eps and rope_theta must be positive, got "
                    + rmsNormEps + " and " + ropeTheta);
        }
        for (int id : eosTokenIds) {
            tokenId("eos_token_id", id, vocabSize);
        }
        bosTokenId.ifPresent(id -> tokenId("bos_token_id", id, vocabSize));
    }

    /** Whether q, k and v projections carry a bias: always for Qwen2, else as {@code attention_bias} says. */
    public boolean qkvBias() {
        return architecture == Architecture.QWEN2 || attentionBias;
    }

    /** Whether the output projection carries a bias: never for Qwen2, else as {@code attention_bias} says. */
    public boolean outputBias() {
        return architecture != Architecture.QWEN2 && attentionBias;
    }

    /** Whether queries and keys are RMS-normalised per head before rotary embedding (Qwen3). */
    public boolean qkNorm() {
        return architecture == Architecture.QWEN3;
    }

    /** Rows of {@code q_proj}: {@code numAttentionHeads * headDim}. */
    public int queryDim() {
        return numAttentionHeads * headDim;
    }

    /** Rows of {@code k_proj} and {@code v_proj}: {@code numKeyValueHeads * headDim}. */
    public int keyValueDim() {
        return numKeyValueHeads * headDim;
    }

    private static void positive(String key, int value) {
        if (value <= 0) {
            throw new ModelFormatException("config.json: " + key + " must be positive, got " + value);
        }
    }

    private static void tokenId(String key, int id, int vocabSize) {
        if (id < 0 || id >= vocabSize) {
            throw new ModelFormatException("config.json: " + key + " " + id + " is outside the vocabulary [0, "
                    + vocabSize + ")");
        }
    }
}
