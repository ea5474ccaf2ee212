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
 * backward of a recomputed layer both inside it. A layer may also keep its gate and up projections' outputs
 * ({@link Kept}); its backward then recomputes only its attention half.
 */
final class DjlCheckpoints {

    private DjlCheckpoints() {
    }

    /**
     * What the checkpointed forward keeps: the input of each of the first {@code count} layers and the last one's
     * output ({@code count + 1} arrays {@code [tokens, hidden]}), and for the layers that keep them their gate and up
     * projections' outputs ({@code [tokens, intermediate]} each; null for the others), all detached and held by the
     * caller's scope.
     */
    record Kept(NDArray[] inputs, NDArray[][] projections) {
    }

    /**
     * Runs the first {@code count} layers; only one layer's activations exist at a time. Layers
     * {@code count - projectionLayers} to {@code count - 1} also keep their gate and up outputs, so that their backward
     * does not recompute those two products.
     */
    static Kept forward(DjlTransformer.Stack stack, DjlLoraBatch lora, int count, int projectionLayers) {
        NDArray[] inputs = new NDArray[count + 1];
        NDArray[][] projections = new NDArray[count][];
        inputs[0] = stack.embedded();
        for (int i = 0; i < count; i++) {
            NDArray[] out;
            try (NDScope scope = new NDScope()) {
                scope.suppressNotUsedWarning();
                out = i >= count - projectionLayers ? stack.layerAndProjections(i, inputs[i], lora)
                        : new NDArray[] {stack.layer(i, inputs[i], lora)};
                for (int j = 0; j < out.length; j++) {
                    out[j] = out[j].stopGradient();
                    NDScope.unregister(out[j]);
                }
            }
            for (NDArray a : out) {
                NDScope.register(a);
            }
            inputs[i + 1] = out[0];
            if (out.length > 1) {
                projections[i] = new NDArray[] {out[1], out[2]};
            }
        }
        return new Kept(inputs, projections);
    }

    /**
     * Backpropagates {@code gradient}, the loss's gradient with respect to the output of the last layer {@code kept}
     * covers, through those layers recomputed from {@code kept} ({@link #forward}'s arrays), adding to the LoRA
     * matrices' gradients; a layer's kept gate and up outputs are freed once its backward has read them. The
     * embeddings are frozen, so the first layer's input gets none.
     */
    static void backward(DjlTransformer.Stack stack, Kept kept, NDArray gradient, DjlLoraBatch lora,
            GradientCollector collector) {
        NDArray g = gradient;
        for (int i = kept.inputs().length - 2; i >= 0; i--) {
            boolean inputGradient = i > 0;
            NDArray below = null;
            NDArray[] projections = kept.projections()[i];
            try (NDScope scope = new NDScope()) {
                scope.suppressNotUsedWarning();
                NDArray x = kept.inputs()[i].stopGradient();
                if (inputGradient) {
                    x.setRequiresGradient(true);
                }
                collector.backward(projections == null ? stack.vectorJacobian(i, x, g, lora)
                        : stack.vectorJacobian(i, x, g, projections[0], projections[1], lora, collector));
                if (inputGradient) {
                    below = x.getGradient().duplicate();
                    NDScope.unregister(below);
                }
            }
            if (projections != null) {
                projections[0].close();
                projections[1].close();
                kept.projections()[i] = null;
            }
            if (below != null) {
                NDScope.register(below);
            }
            g = below;
        }
    }
}
