package dev.crucible.engine.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.nn.Activation;
import ai.djl.nn.core.Linear;

/** The small building blocks of the decoder, each following the Hugging Face modelling code. */
final class DjlOps {

    private DjlOps() {
    }

    /** {@code x @ weight^T + bias} (torch's {@code linear}, Hugging Face's {@code [out, in]} layout); bias may be null. */
    static NDArray linear(NDArray x, NDArray weight, NDArray bias) {
        return Linear.linear(x, weight, bias).singletonOrThrow();
    }

    /** RMSNorm over the last axis: {@code x / sqrt(mean(x^2) + eps) * weight} (LlamaRMSNorm, Qwen2/3RMSNorm). */
    static NDArray rmsNorm(NDArray x, NDArray weight, float eps) {
        NDArray variance = x.square().mean(new int[] {-1}, true);
        return x.div(variance.add(eps).sqrt()).mul(weight);
    }

    /**
     * {@code sum(a * b)} over arrays of one shape, as the dot product of their flattened views: one pass reading both
     * and no product array (its backward, {@code grad * b}, is the product's).
     */
    static NDArray inner(NDArray a, NDArray b) {
        return a.reshape(-1).dot(b.reshape(-1));
    }

    /**
     * The middle of the SwiGLU MLP {@code down(silu(gate(x)) * up(x))}: {@code silu(gate) * up}, with
     * {@code silu(x) = x * sigmoid(x)}.
     */
    static NDArray swiGlu(NDArray gate, NDArray up) {
        return gate.mul(Activation.sigmoid(gate)).mul(up);
    }
}
