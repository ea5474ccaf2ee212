package dev.crucible.application.primitives;

import dev.crucible.kernel.invariant.NonNull;
import java.util.Arrays;
import java.util.Map;

/**
 * One training example of {@code forward_backward} (Tinker's {@code Datum}): the token ids the model reads, and the
 * loss function's inputs by name ({@code target_tokens}, {@code weights}, {@code logprobs}, {@code advantages}), each
 * normally one value per position of {@code modelInput}. Position {@code i} predicts {@code target_tokens[i]}.
 *
 * @param modelInput   the chunks of the model input, concatenated (only text chunks are trained)
 * @param lossFnInputs the loss function's inputs by name
 */
public record Datum(int[] modelInput, Map<String, Tensor> lossFnInputs) {

    public Datum {
        NonNull.components(Datum.class, modelInput, lossFnInputs);
        modelInput = modelInput.clone();
        lossFnInputs = Map.copyOf(lossFnInputs);
    }

    @Override
    public int[] modelInput() {
        return modelInput.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Datum d && Arrays.equals(modelInput, d.modelInput) && lossFnInputs.equals(d.lossFnInputs);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(modelInput) + lossFnInputs.hashCode();
    }

    @Override
    public String toString() {
        return "Datum[" + modelInput.length + " tokens, inputs " + lossFnInputs.keySet() + "]";
    }
}
