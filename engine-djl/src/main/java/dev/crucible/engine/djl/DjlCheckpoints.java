package dev.crucible.engine.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDScope;
import ai.djl.training.GradientCollector;

/**
 * Activation checkpointing of training's decoder, layer by layer. The forward runs each layer in its own
 * {@link NDScope} and keeps only its output, detached; the backward walks the layers from the last, recomputing each
 * from its kept input inside a scope of its own, and backpropagates {@code sum(output * g)}, whose gradient with
 * respect to the layer's input and LoRA matrices is exactly the vector-Jacobian product with {@code g}, the gradient
 * arriving from above. PyTorch adds each backward's gradients to the parameters' {@code .grad}, so the LoRA gradients
 * of all layers accumulate as one backward through the whole stack would leave them. Everything a layer allocates
 * (its activations, the arrays it makes from Java data, its graph) is freed when its scope closes, forward and
 * backward of a recomputed layer both inside it.
 */
final class DjlCheckpoints {

    private DjlCheckpoints() {
    }

    /**
     * The input of each of the first {@code count} layers and the last one's output, {@code count + 1} arrays
     * {@code [tokens, hidden]}, detached and held by the caller's scope; only one layer's activations exist at a time.
     */
    static NDArray[] forward(DjlTransformer.Stack stack, DjlLoraBatch lora, int count) {
        NDArray[] kept = new NDArray[count + 1];
        kept[0] = stack.embedded();
        for (int i = 0; i < count; i++) {
            NDArray out;
            try (NDScope scope = new NDScope()) {
                scope.suppressNotUsedWarning();
                out = stack.layer(i, kept[i], lora).stopGradient();
                NDScope.unregister(out);
            }
            NDScope.register(out);
            kept[i + 1] = out;
        }
        return kept;
    }

    /**
     * Backpropagates {@code gradient}, the loss's gradient with respect to the output of the last layer {@code kept}
     * covers, through those layers recomputed from {@code kept} ({@link #forward}'s arrays), adding to the LoRA
     * matrices' gradients. The embeddings are frozen, so the first layer's input gets none.
     */
    static void backward(DjlTransformer.Stack stack, NDArray[] kept, NDArray gradient, DjlLoraBatch lora,
            GradientCollector collector) {
        NDArray g = gradient;
        for (int i = kept.length - 2; i >= 0; i--) {
            boolean inputGradient = i > 0;
            NDArray below = null;
            try (NDScope scope = new NDScope()) {
                scope.suppressNotUsedWarning();
                NDArray x = kept[i].stopGradient();
                if (inputGradient) {
                    x.setRequiresGradient(true);
                }
                collector.backward(stack.vectorJacobian(i, x, g, lora));
                if (inputGradient) {
                    below = x.getGradient().duplicate();
                    NDScope.unregister(below);
                }
            }
            if (below != null) {
                NDScope.register(below);
            }
            g = below;
        }
    }
}
