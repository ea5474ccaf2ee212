package dev.crucible.application.training;

import dev.crucible.kernel.invariant.NonNull;
import dev.crucible.hf.peft.LoraConfig;

/**
 * What the server decides about training, since ART's API leaves it to the server (art-serverless.md §3.5 and §4).
 *
 * @param lora          the adapter trained: rank 8, alpha 16, all attention and MLP projections by default
 * @param rl            AdamW settings and gradient clipping of RL jobs
 * @param sft           the same for SFT jobs
 * @param autoBatchSize SFT's batch size when the job says {@code auto}
 * @param microBatchTokens at most this many tokens go through the model at once; larger steps accumulate gradients
 * @param seed          seeds a fresh adapter's initialisation
 */
public record TrainingSettings(LoraConfig lora, Optimiser rl, Optimiser sft, int autoBatchSize, int microBatchTokens,
        long seed) {

    public TrainingSettings {
        NonNull.components(TrainingSettings.class, lora, rl, sft);
        if (autoBatchSize < 1 || microBatchTokens < 1) {
            throw new IllegalArgumentException("autoBatchSize and microBatchTokens must be >= 1");
        }
    }

    /**
     * @param maxGradNorm global gradient-norm clip
     */
    public record Optimiser(double beta1, double beta2, double epsilon, double weightDecay, double maxGradNorm) {
    }

    /**
     * ART's choices: LoRA r=8, alpha=16 on every projection; RL with AdamW (0.9, 0.99), weight decay 0.1 and
     * gradient clipping at 0.1; SFT with AdamW (0.9, 0.999), weight decay 0.01, clipping at 1.0 and batches of 2.
     */
    public static TrainingSettings defaults() {
        return new TrainingSettings(LoraConfig.allProjections(8, 16), new Optimiser(0.9, 0.99, 1e-8, 0.1, 0.1),
                new Optimiser(0.9, 0.999, 1e-8, 0.01, 1.0), 2, 4096, 3407);
    }
}
