package dev.crucible.engine.djl;

import ai.djl.ndarray.NDArray;
import dev.crucible.hf.peft.LoraTarget;

/**
 * One trainable LoRA matrix ({@code A} or {@code B} of one layer and target) with its AdamW moments and the
 * gradient accumulated since the last optimiser step. Mutable: the optimiser replaces its arrays in place. Guarded by
 * the owning {@link DjlLoraTrainer}'s lock.
 */
final class DjlLoraParam {

    final int layer;
    final LoraTarget target;
    final boolean isA;
    NDArray value;
    NDArray m;
    NDArray v;
    NDArray grad;

    DjlLoraParam(int layer, LoraTarget target, boolean isA, NDArray value) {
        this.layer = layer;
        this.target = target;
        this.isA = isA;
        this.value = value;
        this.m = value.zerosLike();
        this.v = value.zerosLike();
        value.setRequiresGradient(true);
    }

    /** The tensor name of this matrix in the PEFT file, which the optimiser file's moment names extend. */
    String tensorName() {
        return target.tensorName(layer, isA ? "A" : "B");
    }
}
