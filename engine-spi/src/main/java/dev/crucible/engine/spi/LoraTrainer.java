package dev.crucible.engine.spi;

import java.nio.file.Path;
import java.util.List;

/**
 * Trains one LoRA adapter on a loaded model with AdamW, the base weights frozen. Made by
 * {@link ModelRunner#newTrainer}. A training step is any number of {@link #accumulate} calls (gradient accumulation
 * over micro-batches; the objective decides how each batch is weighted) followed by one {@link #step}.
 *
 * <p>Threading: one thread at a time (a job's runner thread); it may run beside inference on the same runner.
 *
 * <p>Errors: arguments the caller controls (an empty batch, a token id out of range, a sequence longer than the
 * model's {@code max_position_embeddings}, gradients shaped unlike the log-probabilities) fail with
 * {@link IllegalArgumentException} before anything changes; failures inside the engine are
 * {@link EngineException}s of reason {@link EngineException.Reason#FORWARD_FAILED}.
 *
 * <p>Ownership: the caller closes it; closing frees the parameters and the optimiser state. The runner's close frees
 * it too.
 */
public interface LoraTrainer extends AutoCloseable {

    /**
     * Runs the batch with the adapter, asks {@code objective} for the loss and its gradient with respect to the
     * target log-probabilities, and adds the resulting parameter gradients to those already accumulated.
     */
    TrainingBatchResult accumulate(List<TrainingSequence> batch, TokenObjective objective);

    /**
     * The target log-probabilities without recording gradients: under the adapter as it is now, or under the base
     * model alone when {@code withAdapter} is false (the reference policy of a KL penalty).
     */
    List<float[]> logprobs(List<TrainingSequence> batch, boolean withAdapter);

    /**
     * One AdamW step on the accumulated gradients, with the betas, epsilon and weight decay of the
     * {@link LoraTrainingSpec}, after scaling them so their global L2 norm is at most {@code maxGradNorm} (no clipping
     * when it is not finite or not positive); then clears them.
     *
     * <p>When that norm is not finite (a gradient overflowed or is NaN), nothing is updated: the gradients are
     * dropped and the step is not counted, so one bad batch cannot write NaN into the adapter.
     *
     * @return the global L2 norm of the gradients before clipping
     */
    double step(double learningRate, double maxGradNorm);

    /**
     * One AdamW step as {@link #step(double, double)} takes, with all of its settings given for this step rather than
     * the betas, epsilon and weight decay of the {@link LoraTrainingSpec}: a caller may change any of them between
     * steps (the moments carry over; bias correction uses this step's betas). The same rules for non-finite norms
     * apply.
     *
     * @return the global L2 norm of the gradients before clipping
     */
    double step(AdamWStep settings);

    /** How many optimiser steps {@link #step} has taken. */
    int steps();

    /** How many values the adapter trains. */
    long trainableParameters();

    /**
     * Writes the adapter as PEFT's {@code save_pretrained} does ({@code adapter_config.json} and its safetensors) and,
     * once a step was taken, the optimiser's state beside it in a file of the engine's own, which other tools ignore
     * and a trainer started from the folder picks up.
     */
    void save(Path peftFolder);

    @Override
    void close();
}
