package dev.crucible.engine.spi;

import dev.crucible.hf.peft.LoraConfig;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * How to set up a LoRA trainer: the adapter's shape, where its weights start, and AdamW's settings (Loshchilov and
 * Hutter, decoupled weight decay).
 *
 * @param lora        rank, alpha and target projections of the trained adapter
 * @param startFrom   a PEFT folder of the same shape to continue from, with the optimiser state a trainer's
 *                    {@link LoraTrainer#save} left beside it, if any; empty to start from PEFT's initialisation
 *                    ({@code A} Kaiming-uniform, {@code B} zero, so the untrained adapter is the base model)
 * @param seed        seeds the initialisation of {@code A}
 * @param beta1       AdamW's first-moment decay, in [0, 1)
 * @param beta2       AdamW's second-moment decay, in [0, 1)
 * @param epsilon     AdamW's denominator term, &gt; 0
 * @param weightDecay decoupled weight decay, &gt;= 0
 */
public record LoraTrainingSpec(LoraConfig lora, Optional<Path> startFrom, long seed, double beta1, double beta2,
        double epsilon, double weightDecay) {

    public LoraTrainingSpec {
        Objects.requireNonNull(lora, "lora");
        Objects.requireNonNull(startFrom, "startFrom");
        if (!(beta1 >= 0 && beta1 < 1) || !(beta2 >= 0 && beta2 < 1)) {
            throw new IllegalArgumentException("beta1 and beta2 must be in [0, 1), got " + beta1 + ", " + beta2);
        }
        if (!(epsilon > 0) || !(weightDecay >= 0)) {
            throw new IllegalArgumentException("epsilon must be > 0 and weightDecay >= 0, got " + epsilon + ", "
                    + weightDecay);
        }
    }

    /** This spec's AdamW settings for one step at {@code learningRate}, clipping at {@code maxGradNorm}. */
    public AdamWStep step(double learningRate, double maxGradNorm) {
        return new AdamWStep(learningRate, beta1, beta2, epsilon, weightDecay, maxGradNorm);
    }
}
