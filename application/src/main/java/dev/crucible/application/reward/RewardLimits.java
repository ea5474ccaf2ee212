package dev.crucible.application.reward;

/**
 * The bounds on reward-model work a tenant can cause (settings {@code crucible.reward.*}).
 *
 * @param minExamples       the fewest examples a fit takes, at least 4 (two of each label are needed besides)
 * @param maxExamples       the most examples a fit takes; more is a 413
 * @param maxTextChars      the longest prompt or answer, in characters (UTF-16 units)
 * @param maxScoreItems     the most pairs one score request takes; more is a 413
 * @param epochs            passes over the training examples, 1 to 100
 * @param fitsPerKey        fits one API key may run at once; another is a 429
 * @param maxConcurrentFits fits the whole server runs at once; another is a 429
 */
public record RewardLimits(int minExamples, int maxExamples, int maxTextChars, int maxScoreItems, int epochs,
        int fitsPerKey, int maxConcurrentFits) {

    /** The fewest examples of each label: one for the held-out split and one to fit on. */
    public static final int MIN_PER_LABEL = 2;

    public RewardLimits {
        if (minExamples < 2 * MIN_PER_LABEL || maxExamples < minExamples) {
            throw new IllegalArgumentException("crucible.reward.min-examples must be >= 4 and <= max-examples, got "
                    + minExamples + " and " + maxExamples);
        }
        if (maxTextChars < 1 || maxScoreItems < 1 || fitsPerKey < 1 || maxConcurrentFits < 1) {
            throw new IllegalArgumentException("crucible.reward.max-text-chars, max-score-items, fits-per-key and "
                    + "max-concurrent-fits must be >= 1");
        }
        if (epochs < 1 || epochs > 100) {
            throw new IllegalArgumentException("crucible.reward.epochs must be in [1, 100], got " + epochs);
        }
    }
}
