package dev.crucible.engine.spi;

/** What an engine plugin can do; callers check the set before dispatching an operation. */
public enum Capability {
    /** Forward passes and token generation over a base model. */
    INFERENCE,
    /** Applying LoRA adapters per sequence during inference. */
    LORA_INFERENCE,
    /** Gradient-based training of LoRA adapters. */
    TRAINING,
    /** Running on a CUDA device. */
    CUDA
}
