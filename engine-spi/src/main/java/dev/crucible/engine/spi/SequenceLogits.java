package dev.crucible.engine.spi;

import java.util.List;
import java.util.Objects;

/**
 * The forward pass's answer for one sequence: unnormalised next-token scores over the vocabulary, as float32. The
 * arrays belong to the caller (fresh for each call; the runner keeps no reference), so a sampler may modify them.
 *
 * @param last      the logits after the last new token: what predicts the next token; {@code vocabSize} long
 * @param positions when {@link SequenceInput#allPositions()} was asked, the logits after each new token in order (the
 *                  last entry equals {@code last}); otherwise empty
 */
public record SequenceLogits(float[] last, List<float[]> positions) {

    /** Rejects nulls; the list is made unmodifiable (its arrays are not copied). */
    public SequenceLogits {
        Objects.requireNonNull(last, "last");
        positions = List.copyOf(positions);
    }
}
