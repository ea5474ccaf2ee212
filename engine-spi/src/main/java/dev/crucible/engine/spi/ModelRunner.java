package dev.crucible.engine.spi;

import dev.crucible.hf.config.ModelConfig;
import java.util.List;

/**
 * A model loaded into an engine for inference: the forward pass of a decoder-only transformer over a batch of
 * sequences, each with its own {@link KvCache}. Made by {@link EngineProvider#loadModel}. Tokenising, sampling and
 * scheduling belong to the caller; the runner only turns token ids into logits.
 *
 * <p>Threading: thread-safe; {@link #forward} calls are serialised inside the runner (one batch at a time), so a
 * scheduler that wants throughput batches sequences into one call rather than calling from many threads.
 *
 * <p>Ownership: the caller owns the runner and closes it; closing frees the weights and every cache the runner made.
 * After {@link #close()} every method fails with {@link IllegalStateException}. A runner may keep the model's weight
 * files mapped until it is closed.
 *
 * <p>Errors: arguments the caller controls (an empty batch, a foreign or closed cache, the same cache twice, a token
 * id out of range, more tokens than a cache's remaining capacity) fail with {@link IllegalArgumentException} before
 * anything is computed, leaving every cache unchanged. A failure inside the engine is an {@link EngineException}
 * ({@link EngineException.Reason#FORWARD_FAILED}) and also leaves every cache unchanged.
 */
public interface ModelRunner extends AutoCloseable {

    /** The configuration of the loaded model; never null. */
    ModelConfig config();

    /** The length of every logits array: the model's {@code vocab_size}. */
    default int vocabSize() {
        return config().vocabSize();
    }

    /**
     * A new, empty cache for one sequence.
     *
     * @param capacityTokens the most tokens the sequence may hold (prompt and generated), in
     *                       {@code [1, max_position_embeddings]}; an engine may allocate lazily as the cache fills
     * @throws IllegalArgumentException for a capacity outside that range
     */
    KvCache newCache(int capacityTokens);

    /**
     * Runs the model over the new tokens of each sequence, appends their keys and values to the sequence's cache, and
     * returns each sequence's logits. Sequences may have different cache lengths and different numbers of new tokens;
     * each sequence's result equals, within floating-point noise, what it would get in a batch of its own.
     *
     * @param batch at least one sequence, each cache at most once
     * @return one result per input, in the same order
     */
    List<SequenceLogits> forward(List<SequenceInput> batch);

    /** Frees the weights and all caches; idempotent. */
    @Override
    void close();
}
