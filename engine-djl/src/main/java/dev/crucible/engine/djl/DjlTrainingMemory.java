package dev.crucible.engine.djl;

import dev.crucible.hf.config.ModelConfig;
import java.util.Locale;

/**
 * How a training call trades time for memory. The loss is always computed over chunks of at most {@code lossChunkRows}
 * target positions, so the {@code [targets, vocabulary]} logits never exist whole. Activation checkpointing keeps only
 * each decoder layer's input through the forward and recomputes the layer during the backward pass: one more forward of
 * the layers (about a third more work per step) for activations of one layer instead of all. {@link Checkpoint#AUTO}
 * turns it on when what the plain backward would keep ({@link #activationBytes}) exceeds
 * {@link #AUTO_CHECKPOINT_BYTES}, i.e. for real models and not for tiny ones.
 *
 * <p>Read from system properties {@value #CHECKPOINT_PROPERTY} ({@code auto}, {@code on}, {@code off}; default
 * {@code auto}) and {@value #CHUNK_PROPERTY} (default {@value #DEFAULT_CHUNK_ROWS}).
 *
 * @param lossChunkRows target positions scored at once, at least 1
 * @param checkpoint    when the decoder's activations are recomputed rather than kept
 */
record DjlTrainingMemory(int lossChunkRows, Checkpoint checkpoint) {

    static final String CHECKPOINT_PROPERTY = "crucible.djl.training.checkpoint";
    static final String CHUNK_PROPERTY = "crucible.djl.training.loss-chunk";
    static final int DEFAULT_CHUNK_ROWS = 64;
    /** Above this estimate of kept activations, {@link Checkpoint#AUTO} checkpoints: 256 MiB. */
    static final long AUTO_CHECKPOINT_BYTES = 256L << 20;

    /** When to checkpoint the decoder layers. */
    enum Checkpoint {
        /** When the plain backward would keep more than {@link #AUTO_CHECKPOINT_BYTES}. */
        AUTO,
        /** Always. */
        ON,
        /** Never: every layer's activations are kept for the backward pass. */
        OFF
    }

    DjlTrainingMemory {
        if (lossChunkRows < 1) {
            throw new IllegalArgumentException("lossChunkRows must be at least 1, got " + lossChunkRows);
        }
        if (checkpoint == null) {
            throw new IllegalArgumentException("checkpoint must not be null");
        }
    }

    /** The settings of the system properties ({@link #parse}). */
    static DjlTrainingMemory fromSystemProperties() {
        return parse(System.getProperty(CHECKPOINT_PROPERTY), System.getProperty(CHUNK_PROPERTY));
    }

    /**
     * The settings from the properties' values, null for an absent one; a value that does not parse is an
     * {@link IllegalArgumentException} naming the property, since a typo would otherwise silently cost gigabytes.
     */
    static DjlTrainingMemory parse(String checkpoint, String chunkRows) {
        String mode = checkpoint == null ? "auto" : checkpoint.strip().toLowerCase(Locale.ROOT);
        Checkpoint parsed = switch (mode) {
            case "auto" -> Checkpoint.AUTO;
            case "on" -> Checkpoint.ON;
            case "off" -> Checkpoint.OFF;
            default -> throw new IllegalArgumentException(CHECKPOINT_PROPERTY + " must be auto, on or off, got "
                    + checkpoint);
        };
        if (chunkRows == null) {
            return new DjlTrainingMemory(DEFAULT_CHUNK_ROWS, parsed);
        }
        int rows;
        try {
            rows = Integer.parseInt(chunkRows.strip());
        } catch (NumberFormatException e) {
            rows = 0;
        }
        if (rows < 1) {
            throw new IllegalArgumentException(CHUNK_PROPERTY + " must be a whole number of at least 1, got "
                    + chunkRows);
        }
        return new DjlTrainingMemory(rows, parsed);
    }

    /** Whether a batch of {@code tokens} tokens, the longest sequence {@code longest}, runs checkpointed. */
    boolean checkpoints(ModelConfig model, long tokens, int longest) {
        return switch (checkpoint) {
            case ON -> true;
            case OFF -> false;
            case AUTO -> activationBytes(model, tokens, longest) > AUTO_CHECKPOINT_BYTES;
        };
    }

    /**
     * A rough count of what autograd keeps per token and layer without checkpointing: about eight hidden-sized vectors
     * (norms, q/k/v, attention output, residuals), five intermediate-sized ones (gate, its sigmoid and SiLU, up, their
     * product) and each head's scores and softmax over the sequence, in F32.
     */
    static long activationBytes(ModelConfig model, long tokens, int longest) {
        long perToken = 8L * model.hiddenSize() + 5L * model.intermediateSize()
                + 2L * model.numAttentionHeads() * longest;
        return tokens * model.numHiddenLayers() * perToken * Float.BYTES;
    }
}
