package dev.crucible.domain.job;

import dev.crucible.domain.common.Refusal;

/**
 * How much training data one SFT job may read.
 *
 * @param maxExamples the most examples (non-blank lines), at least 1
 * @param maxBytes    the most bytes of the whole dataset, at least 1
 */
public record SftDatasetLimits(int maxExamples, long maxBytes) {

    /** The defaults: 100,000 examples and 1 GiB. */
    public static final SftDatasetLimits DEFAULT = new SftDatasetLimits(100_000, 1L << 30);

    public SftDatasetLimits {
        if (maxExamples < 1) {
            throw new IllegalArgumentException("maxExamples must be >= 1, got " + maxExamples);
        }
        if (maxBytes < 1) {
            throw new IllegalArgumentException("maxBytes must be >= 1, got " + maxBytes);
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
