package dev.crucible.engine.djl;

import dev.crucible.hf.config.ModelConfig;
import java.util.Locale;

/**
 * How a training call trades time for memory. The loss is always computed over chunks of at most {@code lossChunkRows}
 * target positions, so the {@code [targets, vocabulary]} logits never exist whole. Activation checkpointing keeps only
 * a decoder layer's input through the forward and recomputes the layer during the backward pass: one more forward of
 * that layer for its activations not being kept. {@link Checkpoint#AUTO} keeps the activations of as many of the last
 * layers as fit in {@code keptBytes} ({@link #activationBytes} per layer) and checkpoints the layers below them,
 * after first giving the checkpointed layers' gate and up outputs their bytes ({@link #projectionLayers}): all of a
 * tiny model's layers are kept whole; of the 0.5B shape at 2 x 256 none whole and every layer's gate and up
 * outputs, at 8 x 256 six layers' outputs.
 *
 * <p>Read from system properties {@value #CHECKPOINT_PROPERTY} ({@code auto}, {@code on}, {@code off}; default
 * {@code auto}), {@value #CHUNK_PROPERTY} (default {@value #DEFAULT_CHUNK_ROWS}) and {@value #KEPT_PROPERTY} (MiB,
 * default {@value #DEFAULT_KEPT_MIB}).
 *
 * @param lossChunkRows target positions scored at once, at least 1
 * @param checkpoint    when the decoder's activations are recomputed rather than kept
 * @param keptBytes     what {@link Checkpoint#AUTO} lets the kept layers' activations take, at least 0
 */
record DjlTrainingMemory(int lossChunkRows, Checkpoint checkpoint, long keptBytes) {

    static final String CHECKPOINT_PROPERTY = "crucible.djl.training.checkpoint";
    static final String CHUNK_PROPERTY = "crucible.djl.training.loss-chunk";
    static final String KEPT_PROPERTY = "crucible.djl.training.kept-activations-mib";
    /**
     * Targets scored at once by default: each chunk's product streams the whole unembedding (545 MB for a 151,936 x 896
     * head), so larger chunks read it fewer times, but a chunk's {@code [chunk, vocabulary]} arrays (logits,
     * log-probabilities, the hand-written backward's) are what sets the peak once the checkpointed layers' gate and up
     * outputs are kept through the loss: the 0.5B shape at 2 x 256 tokens with every layer's kept peaked at 3,380 to
     * 3,421 MB in chunks of 256 and 3,197 MB in chunks of 128 (one step in a fresh JVM each). 256 keeps that within
     * 3,500 MB and its step was 7% faster (8.1-8.4 s against 8.9 s a step on the quiet machine).
     */
    static final int DEFAULT_CHUNK_ROWS = 256;
    /**
     * What {@link Checkpoint#AUTO} keeps of the layers' activations by default, in MiB: every layer's gate and up
     * outputs for the 0.5B shape at 2 x 256 tokens (24 x 19.9 MB), six layers' at 8 x 256.
     */
    static final int DEFAULT_KEPT_MIB = 512;

    /** When to checkpoint the decoder layers. */
    enum Checkpoint {
        /** The layers below those whose activations fit in {@link #keptBytes}. */
        AUTO,
        /** Every layer. */
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
        if (keptBytes < 0) {
            throw new IllegalArgumentException("keptBytes must not be negative, got " + keptBytes);
        }
    }

    /** The settings with {@link Checkpoint#AUTO}'s default share of memory. */
    DjlTrainingMemory(int lossChunkRows, Checkpoint checkpoint) {
        this(lossChunkRows, checkpoint, (long) DEFAULT_KEPT_MIB << 20);
    }

    /** The settings of the system properties ({@link #parse}). */
    static DjlTrainingMemory fromSystemProperties() {
        return parse(System.getProperty(CHECKPOINT_PROPERTY), System.getProperty(CHUNK_PROPERTY),
                System.getProperty(KEPT_PROPERTY));
    }

    /**
     * The settings from the properties' values, null for an absent one; a value that does not parse is an
     * {@link IllegalArgumentException} naming the property, since a typo would otherwise silently cost gigabytes.
     */
    static DjlTrainingMemory parse(String checkpoint, String chunkRows, String keptMib) {
        String mode = checkpoint == null ? "auto" : checkpoint.strip().toLowerCase(Locale.ROOT);
        Checkpoint parsed = switch (mode) {
            case "auto" -> Checkpoint.AUTO;
            case "on" -> Checkpoint.ON;
            case "off" -> Checkpoint.OFF;
            default -> throw new IllegalArgumentException(CHECKPOINT_PROPERTY + " must be auto, on or off, got "
                    + checkpoint);
        };
        int rows = chunkRows == null ? DEFAULT_CHUNK_ROWS : whole(CHUNK_PROPERTY, chunkRows, 1);
        long kept = keptMib == null ? DEFAULT_KEPT_MIB : whole(KEPT_PROPERTY, keptMib, 0);
        return new DjlTrainingMemory(rows, parsed, kept << 20);
    }

    /** {@code value} as a whole number of at least {@code least}, or an exception naming {@code property}. */
    private static int whole(String property, String value, int least) {
        int parsed;
        try {
            parsed = Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            parsed = least - 1;
        }
        if (parsed < least) {
            throw new IllegalArgumentException(property + " must be a whole number of at least " + least + ", got "
                    + value);
        }
        return parsed;
    }

    /**
     * How many of the last layers keep their activations for the backward pass when a batch of {@code tokens} tokens,
     * the longest sequence {@code longest}, trains; the layers below them are checkpointed. The last ones are kept
     * because the backward reaches them first: their activations are the ones a checkpointed layer's would replace.
     * Under {@link Checkpoint#AUTO} every layer is kept when all fit in {@link #keptBytes}; otherwise the budget goes
     * first to the checkpointed layers' gate and up outputs ({@link #projectionLayers}), which save two thirds of a
     * recomputed layer's products in a fifth of its activations' bytes, and whole layers are kept only with what all
     * layers' gate and up outputs leave.
     */
    int keptLayers(ModelConfig model, long tokens, int longest) {
        int layers = model.numHiddenLayers();
        return switch (checkpoint) {
            case ON -> 0;
            case OFF -> layers;
            case AUTO -> {
                long perLayer = layerBytes(model, tokens, longest);
                long projections = projectionBytes(model, tokens);
                if (keptBytes / perLayer >= layers) {
                    yield layers;
                }
                long left = keptBytes - layers * projections;
                yield left <= 0 ? 0 : (int) Math.min(layers, left / Math.max(1, perLayer - projections));
            }
        };
    }

    /**
     * How many of the checkpointed layers (the top ones, below {@link #keptLayers}) keep their gate and up projections'
     * outputs through the forward, so that their backward recomputes only the attention half: under
     * {@link Checkpoint#AUTO}, as many as {@link #keptBytes} holds after the kept layers; none otherwise.
     */
    int projectionLayers(ModelConfig model, long tokens, int longest) {
        if (checkpoint != Checkpoint.AUTO) {
            return 0;
        }
        int kept = keptLayers(model, tokens, longest);
        long left = keptBytes - kept * layerBytes(model, tokens, longest);
        return (int) Math.max(0, Math.min(model.numHiddenLayers() - kept,
                left / Math.max(1, projectionBytes(model, tokens))));
    }

    /** One layer's share of {@link #activationBytes}, at least 1. */
    private static long layerBytes(ModelConfig model, long tokens, int longest) {
        return Math.max(1, activationBytes(model, tokens, longest) / model.numHiddenLayers());
    }

    /** What one layer's gate and up outputs take, F32: {@code 2 x tokens x intermediate x 4} bytes. */
    static long projectionBytes(ModelConfig model, long tokens) {
        return 2L * tokens * model.intermediateSize() * Float.BYTES;
    }

    /**
     * A rough count of what a layer keeps per token without checkpointing: about eight hidden-sized vectors (norms,
     * q/k/v, attention output, residuals), seven intermediate-sized ones (gate, its sigmoid and SiLU, up, their
     * product, and what the allocator holds besides) and each head's scores and softmax over the sequence, in F32. The
     * 0.5B shape at 2 x 256 tokens measured 103 MB per layer (peak resident memory with every layer kept against every
     * layer checkpointed, over 24 layers); this says 99 MB.
     */
    static long activationBytes(ModelConfig model, long tokens, int longest) {
        long perToken = 8L * model.hiddenSize() + 7L * model.intermediateSize()
                + 2L * model.numAttentionHeads() * longest;
        return tokens * model.numHiddenLayers() * perToken * Float.BYTES;
    }
}
