package dev.crucible.engine.spi;

import java.util.Arrays;

/**
 * One sequence of a training batch: its token ids and the positions whose tokens are trained. Training at position
 * {@code t} means scoring {@code tokenIds[t]} given {@code tokenIds[0..t)}: the model's log-probability of the token
 * at {@code t}, read from the logits after position {@code t - 1}. The arrays are copied on construction and on access.
 *
 * @param tokenIds the whole sequence, at least two tokens; each in {@code [0, vocabSize)} (the trainer checks)
 * @param targets  the trained positions, strictly increasing, each in {@code [1, tokenIds.length)}; may be empty (the
 *                 sequence then contributes nothing)
 */
public record TrainingSequence(int[] tokenIds, int[] targets) {

    public TrainingSequence {
        if (tokenIds == null || tokenIds.length < 2) {
            throw new IllegalArgumentException("tokenIds must hold at least two tokens, got "
                    + (tokenIds == null ? "null" : tokenIds.length));
        }
        if (targets == null) {
            throw new IllegalArgumentException("targets must not be null");
        }
        tokenIds = tokenIds.clone();
        targets = targets.clone();
        for (int i = 0; i < targets.length; i++) {
            if (targets[i] < 1 || targets[i] >= tokenIds.length) {
                throw new IllegalArgumentException("targets[" + i + "] must be in [1, " + tokenIds.length + "), got "
                        + targets[i]);
            }
            if (i > 0 && targets[i] <= targets[i - 1]) {
                throw new IllegalArgumentException("targets must be strictly increasing, got " + targets[i - 1]
                        + " then " + targets[i]);
            }
        }
    }

    /** A copy of the token ids. */
    @Override
    public int[] tokenIds() {
        return tokenIds.clone();
    }

    /** A copy of the trained positions. */
    @Override
    public int[] targets() {
        return targets.clone();
    }

    public int length() {
        return tokenIds.length;
    }

    public int targetCount() {
        return targets.length;
    }

    /** The token trained at the {@code index}-th target. */
    public int targetToken(int index) {
        return tokenIds[targets[index]];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TrainingSequence s && Arrays.equals(tokenIds, s.tokenIds) && Arrays.equals(targets, s.targets);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(tokenIds) + Arrays.hashCode(targets);
    }

    @Override
    public String toString() {
        return "TrainingSequence[" + tokenIds.length + " tokens, " + targets.length + " targets]";
    }
}
