package dev.crucible.engine.spi;

import dev.crucible.hf.ModelFormatException;
import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.peft.LoraWeights;
import java.nio.file.Path;

/**
 * A LoRA adapter loaded into a {@link ModelRunner} from a PEFT folder: for each adapted projection {@code W} of each
 * layer, a sequence that names the adapter in its {@link SequenceInput#adapter()} computes
 * {@code W x + scaling * B (A x)} instead of {@code W x}. An adapter whose {@code B} matrices are all zero (PEFT's
 * initialisation, a model's checkpoint at step 0) gives exactly the base model's logits. Made by
 * {@link ModelRunner#loadAdapter} and usable only with the runner that loaded it.
 *
 * <p>Ownership: the caller owns the adapter and closes it when no sequence needs it any more; closing frees its
 * weights, is idempotent, and a closed adapter is rejected by {@link ModelRunner#forward} with an
 * {@link IllegalArgumentException}. The runner's {@link ModelRunner#close()} also frees every adapter it loaded.
 *
 * <p>Threading: thread-safe; one adapter may serve any number of sequences, in one batch or many. It holds no
 * per-sequence state (that is in the {@link KvCache}), so a sequence should keep one adapter for its whole life: its
 * cache holds keys and values computed with it.
 */
public interface LoraAdapter extends AutoCloseable {

    /** The rank {@code r} of the adapter's matrices; at least 1. */
    int rank();

    /** The factor on {@code B (A x)}: {@code lora_alpha / r}, or {@code lora_alpha / sqrt(r)} with rsLoRA. */
    double scaling();

    /**
     * Reads and checks a PEFT folder's adapter for a model of {@code config}, as {@link ModelRunner#loadAdapter} does
     * before making the engine's adapter from it.
     *
     * @throws EngineException {@link EngineException.Reason#INVALID_MODEL} naming what does not fit the model
     */
    static LoraWeights readPeftFolder(Path peftFolder, ModelConfig config) {
        try {
            return LoraWeights.read(peftFolder, config);
        } catch (ModelFormatException e) {
            throw new EngineException(EngineException.Reason.INVALID_MODEL, e.getMessage(), e);
        }
    }

    /** Frees the adapter's weights; idempotent. */
    @Override
    void close();
}
