package dev.crucible.engine.djl;

import ai.djl.ndarray.NDArray;

/**
 * One decoder layer's weights, as Hugging Face names and shapes them (linear weights {@code [out, in]}). The biases
 * and the q/k norms are null where the architecture has none: q/k/v biases for Qwen2 (and Llama with
 * {@code attention_bias}), the output bias for Llama with {@code attention_bias}, the per-head q/k norms for Qwen3.
 */
record DjlLayer(NDArray inputNorm, NDArray q, NDArray qBias, NDArray k, NDArray kBias, NDArray v, NDArray vBias,
        NDArray o, NDArray oBias, NDArray qNorm, NDArray kNorm, NDArray postNorm, NDArray gate, NDArray up,
        NDArray down) {
}
