package dev.crucible.engine.spi;

import java.util.Arrays;

/**
 * One sequence of a training batch: its token ids and the positions whose tokens are trained. Training at position
 * {@code t} means scoring a token given {@code tokenIds[0..t)}: the model's log-probability of that token, read from
 * the logits after position {@code t - 1}. The scored token is {@code tokenIds[t]} (teacher forcing, what SFT and RL
 * jobs train), unless the sequence was made by {@link #predicting}, which names each position's next token freely, as
 * Tinker's datums do. The arrays are copied on construction and on access.
 *
 * @param tokenIds     the whole sequence, at least two tokens; each in {@code [0, vocabSize)} (the trainer checks)
 * @param targets      the trained positions, strictly increasing, each in {@code [1, tokenIds.length)}; may be empty
 *                     (the sequence then contributes nothing)
 * @param targetTokens the token scored at each target, as long as {@code targets}; each in {@code [0, vocabSize)} (the
 *                     trainer checks)
 */
public record TrainingSequence(int[] tokenIds, int[] targets, int[] targetTokens) {

    /** Teacher forcing: each target position scores the sequence's own token there. */
    public TrainingSequence(int[] tokenIds, int[] targets) {
        this(tokenIds, targets, ownTokens(tokenIds, targets));
    }

    /**
     * A sequence whose every position predicts a token of the caller's choosing: position {@code i} of {@code input}
     * scores {@code next[i]} given {@code input[0..i]}. This is Tinker's datum ({@code model_input} and
     * {@code target_tokens}); {@code next[i]} need not equal {@code input[i + 1]}.
     *
     * @throws IllegalArgumentException when {@code input} is empty or the two lengths differ
     */
    public static TrainingSequence predicting(int[] input, int[] next) {
        if (input == null || next == null || input.length == 0 || input.length != next.length) {
            throw new IllegalArgumentException("input and next must be non-empty and of one length, got "
                    + (input == null ? "null" : input.length) + " and " + (next == null ? "null" : next.length));
        }
        int[] ids = Arrays.copyOf(input, input.length + 1);
        ids[input.length] = next[input.length - 1];
        int[] targets = new int[input.length];
        for (int i = 0; i < targets.length; i++) {
            targets[i] = i + 1;
        }
        return new TrainingSequence(ids, targets, next);
    }

    public TrainingSequence {
        if (tokenIds == null || tokenIds.length < 2) {
            throw new IllegalArgumentException("tokenIds must hold at least two tokens, got "
                    + (tokenIds == null ? "null" : tokenIds.length));
        }
        if (targets == null) {
            throw new IllegalArgumentException("targets must not be null");
        }
        if (targetTokens == null || targetTokens.length != targets.length) {
            throw new IllegalArgumentException("targetTokens must hold one token per target (" + targets.length
                    + "), got " + (targetTokens == null ? "null" : targetTokens.length));
        }
        tokenIds = tokenIds.clone();
        targets = targets.clone();
        targetTokens = targetTokens.clone();
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

    /** A copy of the token scored at each target. */
    @Override
    public int[] targetTokens() {
        return targetTokens.clone();
    }

    public int length() {
        return tokenIds.length;
    }

    public int targetCount() {
        return targets.length;
    }

    /** The token trained at the {@code index}-th target. */
    public int targetToken(int index) {
        return targetTokens[index];
    }

    private static int[] ownTokens(int[] tokenIds, int[] targets) {
        if (tokenIds == null || targets == null) {
            return null;
        }
        int[] tokens = new int[targets.length];
        for (int i = 0; i < targets.length; i++) {
            tokens[i] = targets[i] >= 0 && targets[i] < tokenIds.length ? tokenIds[targets[i]] : -1;
        }
        return tokens;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TrainingSequence s && Arrays.equals(tokenIds, s.tokenIds) && Arrays.equals(targets, s.targets)
                && Arrays.equals(targetTokens, s.targetTokens);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Arrays.hashCode(tokenIds) + Arrays.hashCode(targets)) + Arrays.hashCode(targetTokens);
    }

    @Override
    public String toString() {
        return "TrainingSequence[" + tokenIds.length + " tokens, " + targets.length + " targets]";
    }
}
