package dev.crucible.engine.djl;

import dev.crucible.engine.spi.TokenObjective;
import dev.crucible.engine.spi.TrainingSequence;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A batch packed row after row: every token, each sequence's length, and the rows whose logits predict a target
 * (row {@code offset + t - 1} for target {@code t}) with the tokens they predict. Checks token ids against the
 * vocabulary and lengths against the position limit, so a bad batch is an argument error before any forward.
 */
record DjlTrainingBatch(long[] tokens, int[] lengths, long[] rows, long[] targetTokens, int[] targetCounts) {

    static DjlTrainingBatch of(List<TrainingSequence> batch, int vocab, int maxLength) {
        int total = 0;
        int targets = 0;
        for (int i = 0; i < batch.size(); i++) {
            TrainingSequence s = batch.get(i);
            if (s.length() > maxLength) {
                throw new IllegalArgumentException("batch[" + i + "] has " + s.length()
                        + " tokens, more than max_position_embeddings " + maxLength);
            }
            total += s.length();
            targets += s.targetCount();
        }
        long[] tokens = new long[total];
        int[] lengths = new int[batch.size()];
        long[] rows = new long[targets];
        long[] targetTokens = new long[targets];
        int[] counts = new int[batch.size()];
        int offset = 0;
        int r = 0;
        for (int i = 0; i < batch.size(); i++) {
            TrainingSequence s = batch.get(i);
            int[] ids = s.tokenIds();
            for (int j = 0; j < ids.length; j++) {
                if (ids[j] < 0 || ids[j] >= vocab) {
                    throw new IllegalArgumentException("batch[" + i + "].tokenIds[" + j + "] must be in [0, "
                            + vocab + "), got " + ids[j]);
                }
                tokens[offset + j] = ids[j];
            }
            int[] positions = s.targets();
            int[] scored = s.targetTokens();
            for (int k = 0; k < positions.length; k++) {
                if (scored[k] < 0 || scored[k] >= vocab) {
                    throw new IllegalArgumentException("batch[" + i + "].targetTokens[" + k + "] must be in [0, "
                            + vocab + "), got " + scored[k]);
                }
                rows[r] = offset + positions[k] - 1L;
                targetTokens[r++] = scored[k];
            }
            lengths[i] = ids.length;
            counts[i] = s.targetCount();
            offset += ids.length;
        }
        return new DjlTrainingBatch(tokens, lengths, rows, targetTokens, counts);
    }

    /** Per row, whether {@code objective} can have a non-zero derivative at its target ({@link TokenObjective#graded}). */
    boolean[] graded(TokenObjective objective) {
        boolean[] graded = new boolean[rows.length];
        for (int i = 0, r = 0; i < targetCounts.length; i++) {
            for (int k = 0; k < targetCounts[i]; k++) {
                graded[r++] = objective.graded(i, k);
            }
        }
        return graded;
    }

    /** The longest sequence's length. */
    int longest() {
        return Arrays.stream(lengths).max().orElse(0);
    }

    /**
     * Per token of the batch, the value of {@code perTarget} (one per target, in order) at the target its row predicts,
     * for the targets {@code indices} only; 0 at every other token.
     */
    float[] perRow(float[] perTarget, int[] indices) {
        float[] out = new float[tokens.length];
        for (int i : indices) {
            out[(int) rows[i]] = perTarget[i];
        }
        return out;
    }

    List<float[]> split(float[] flat) {
        List<float[]> out = new ArrayList<>(targetCounts.length);
        int at = 0;
        for (int count : targetCounts) {
            float[] part = new float[count];
            System.arraycopy(flat, at, part, 0, count);
            out.add(part);
            at += count;
        }
        return out;
    }

    float[] flatten(List<float[]> perSequence) {
        if (perSequence.size() != targetCounts.length) {
            throw new IllegalArgumentException("objective returned gradients for " + perSequence.size()
                    + " sequences, expected " + targetCounts.length);
        }
        float[] flat = new float[rows.length];
        int at = 0;
        for (int i = 0; i < targetCounts.length; i++) {
            float[] part = perSequence.get(i);
            if (part == null || part.length != targetCounts[i]) {
                throw new IllegalArgumentException("objective returned " + (part == null ? "no" : part.length)
                        + " gradients for sequence " + i + ", expected " + targetCounts[i]);
            }
            System.arraycopy(part, 0, flat, at, part.length);
            at += part.length;
        }
        return flat;
    }
}
