package dev.crucible.application.job.dataset;

import dev.crucible.kernel.refusal.Refusal;

/**
 * How much training data one SFT job may read.
 *
 * @param maxExamples the most examples (non-blank lines), at least 1
 * @param maxBytes    the most bytes of the whole dataset, 1 to {@value #MAX_BYTES} (the dataset is read into memory)
 */
public record SftDatasetLimits(int maxExamples, long maxBytes) {

    /** The largest byte bound: the largest array a JVM makes, less one for the byte that shows a dataset is over. */
    public static final long MAX_BYTES = Integer.MAX_VALUE - 9L;

    public SftDatasetLimits {
        if (maxExamples < 1) {
            throw new IllegalArgumentException("maxExamples must be >= 1, got " + maxExamples);
        }
        if (maxBytes < 1 || maxBytes > MAX_BYTES) {
            throw new IllegalArgumentException("maxBytes must be between 1 and " + MAX_BYTES + ", got " + maxBytes);
        }
    }

    /** The refusal for a dataset longer than {@link #maxBytes()}. */
    public Refusal tooLarge() {
        return Refusal.invalid(SftLineReader.PARAM,
                "training data is larger than " + maxBytes + " bytes, the most one job may read");
    }

    /** The refusal for a dataset with more than {@link #maxExamples()} examples, noticed at {@code line}. */
    Refusal tooMany(int line) {
        return Refusal.invalid(SftLineReader.PARAM, "training data has more than " + maxExamples
                + " examples, the most one job may train on (line " + line + " is example " + (maxExamples + 1) + ")");
    }
}
