package dev.crucible.application.reward;

import java.util.List;
import java.util.Objects;

/**
 * A fitted reward model as its trainer wrote it, to be stored and handed back to its scorer unchanged.
 *
 * @param onnx           the ONNX model: a dense float input of {@code featureNames.size()} columns, class
 *                       probabilities out
 * @param featureNames   the input's columns in order: the name of the feature each column holds
 * @param positiveColumn the output column that holds the probability of a good answer
 */
public record RewardArtifact(byte[] onnx, List<String> featureNames, int positiveColumn) {

    public RewardArtifact {
        Objects.requireNonNull(onnx, "onnx");
        featureNames = List.copyOf(featureNames);
        if (onnx.length == 0 || featureNames.isEmpty()) {
            throw new IllegalArgumentException("a reward artifact needs ONNX bytes and at least one feature");
        }
        if (positiveColumn < 0 || positiveColumn > 1) {
            throw new IllegalArgumentException("positiveColumn must be 0 or 1, got " + positiveColumn);
        }
    }
}
