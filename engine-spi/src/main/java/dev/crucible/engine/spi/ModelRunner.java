package dev.crucible.engine.spi;

import dev.crucible.hf.config.ModelConfig;
import java.nio.file.Path;
import java.util.List;

/**
 * A model loaded into an engine for inference: the forward pass of a decoder-only transformer over a batch of
 * sequences, each with its own {@link KvCache}. Made by {@link EngineProvider#loadModel}. Tokenising, sampling and
 * scheduling belong to the caller; the runner only turns token ids into logits. Engines with
 * {@link Capability#LORA_INFERENCE} also load LoRA adapters ({@link #loadAdapter}), which each sequence of a batch may
 * name on its own: one batch may mix base-model sequences and sequences of different adapters.
 *
 * <p>Threading: thread-safe; {@link #forward} calls are serialised inside the runner (one batch at a time), so a
 * scheduler that wants throughput batches sequences into one call rather than calling from many threads.
 *
 * <p>Ownership: the caller owns the runner and closes it; closing frees the weights and every cache and adapter the
 * runner made. After {@link #close()} every method fails with {@link IllegalStateException}. A runner may keep the
 * model's weight files mapped until it is closed.
 *
 * <p>Errors: arguments the caller controls (an empty batch, a foreign or closed cache, the same cache twice, a token
 * id out of range, more tokens than a cache's remaining capacity, a foreign or closed adapter) fail with
 * {@link IllegalArgumentException} before anything is computed, leaving every cache unchanged. A failure inside the
 * engine is an {@link EngineException} ({@link EngineException.Reason#FORWARD_FAILED}) and also leaves every cache
 * unchanged.
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

    /**
     * Copies the keys and values of the first {@code tokens} positions of {@code from} into {@code to}, an empty cache,
     * and sets {@code to}'s length to {@code tokens}: a later forward on {@code to} then gives, within floating-point
     * noise, the logits it would give had those tokens been forwarded into it. This is how a prompt prefix computed
     * once serves other sequences (prefix caching, the {@code n} samples of one prompt). The caches stay independent:
     * writing to one never changes the other. {@code from} must have been filled with the adapter {@code to} will use.
     *
     * @throws IllegalArgumentException before anything changes when either cache was not made by this runner or is
     *                                  closed, both are the same cache, {@code to} is not empty, or {@code tokens} is
     *                                  outside {@code [1, from.length()]} or above {@code to.capacity()}
     */
    void copyPrefix(KvCache from, KvCache to, int tokens);

    /**
     * A cache that holds the first {@code tokens} positions of {@code from} and is full ({@code capacity()} and
     * {@code length()} are {@code tokens}): a computed prefix kept for later {@link #copyPrefix} calls, as the prefix
     * cache keeps a prompt. It is independent of {@code from} as {@link #copyPrefix}'s target is: forwards append to
     * {@code from} past its length, and closing {@code from} leaves the kept positions held. An engine may keep them
     * where {@code from} holds them, copying nothing; by default they are copied into a new cache.
     *
     * @throws IllegalArgumentException before anything changes when {@code from} was not made by this runner or is
     *                                  closed, or {@code tokens} is outside {@code [1, from.length()]}
     */
    default KvCache keepPrefix(KvCache from, int tokens) {
        RunnerKvCache.checkKeptLength(from, tokens);
        KvCache kept = newCache(tokens);
        try {
            copyPrefix(from, kept, tokens);
        } catch (RuntimeException e) {
            kept.close();
            throw e;
        }
        return kept;
    }

    /**
     * Loads a LoRA adapter saved by PEFT for this model: {@code adapter_config.json} ({@code r}, {@code lora_alpha},
     * {@code target_modules} among {@code q_proj, k_proj, v_proj, o_proj, gate_proj, up_proj, down_proj}, optionally
     * {@code use_rslora}; dropout and other training settings are ignored) and {@code adapter_model.safetensors}
     * ({@code base_model.model.model.layers.{i}.<module>.lora_A.weight} {@code [r, in]} and {@code ...lora_B.weight}
     * {@code [out, r]} for every layer and target; F32, F16 or BF16). Only engines with
     * {@link Capability#LORA_INFERENCE} implement it.
     *
     * <p>Thread-safe; reading the files does not hold up forwards running meanwhile. The caller owns the adapter and
     * closes it; the runner's {@link #close()} frees it too.
     *
     * @param peftFolder the folder PEFT's {@code save_pretrained} wrote; never null
     * @return the loaded adapter, ready to name in {@link SequenceInput#adapter()}
     * @throws EngineException {@link EngineException.Reason#NOT_CAPABLE} when the engine cannot apply adapters (the
     *                         default); {@link EngineException.Reason#INVALID_MODEL} naming the file and the key or
     *                         tensor at fault when a file is missing or unreadable, a key is invalid or names a
     *                         feature not supported (an unknown target module, DoRA, per-module ranks), or a tensor is
     *                         missing, unexpected, misshaped or of a dtype not supported
     */
    default LoraAdapter loadAdapter(Path peftFolder) {
        throw new EngineException(EngineException.Reason.NOT_CAPABLE, "this model runner cannot apply LoRA adapters");
    }

    /**
     * A trainer of a new LoRA adapter on this model, base weights frozen; only engines with
     * {@link Capability#TRAINING} implement it. It shares the runner's weights, so it costs only the adapter, its
     * gradients and the optimiser state.
     *
     * @throws EngineException {@link EngineException.Reason#NOT_CAPABLE} by default;
     *                         {@link EngineException.Reason#INVALID_MODEL} when {@code spec.startFrom()} cannot be
     *                         read or does not match the spec
     */
    default LoraTrainer newTrainer(LoraTrainingSpec spec) {
        throw new EngineException(EngineException.Reason.NOT_CAPABLE, "this model runner cannot train adapters");
    }

    /**
     * Gives back to the operating system what the runner grew to serve a burst and does not need while idle (key/value
     * memory of freed caches, say), keeping the weights and the caches still held. Called by the generation loop once
     * it has had nothing to run for a while; the next burst grows it again. Does nothing by default.
     */
    default void releaseIdleMemory() {
    }

    /**
     * Whether this runner warmed its own forward path when it was loaded (an engine's warm-up at load), and so asks
     * its server to warm the rest of a request's way before the model serves: the scheduler, sampler,
     * detokenizer and stop checks, the chat path and its writers, which the engine's warm-up cannot reach. A runner
     * that did not (its warm-up switched off, or a test double whose forwards are scripted or gated) is served
     * unwarmed and sees no forward it was not asked for. {@code false} by default.
     */
    default boolean warmedUp() {
        return false;
    }

    /** Frees the weights, all caches, adapters and trainers; idempotent. */
    @Override
    void close();
}
