package dev.crucible.engine.djl;

import ai.djl.ndarray.NDArray;
import dev.crucible.hf.peft.LoraTarget;

/**
 * The matrices one adapter adds to the projections: per layer and target {@code A [r, in]} and {@code scaling * B
 * [out, r]}. A loaded {@link DjlLoraAdapter} is one; a {@link DjlLoraTrainer}'s parameters are another.
 */
interface DjlLoraMatrices {

    /** Whether the adapter adapts {@code target} (in every layer). */
    boolean adapts(LoraTarget target);

    /** {@code A [r, in]} of one layer's target; null when the adapter does not adapt it. */
    NDArray a(int layer, LoraTarget target);

    /** {@code scaling * B [out, r]} of one layer's target; null when the adapter does not adapt it. */
    NDArray scaledB(int layer, LoraTarget target);
}
