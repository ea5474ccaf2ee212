package dev.crucible.domain.reward;

/**
 * How a reward model did on the examples held out of its fit.
 *
 * @param accuracy  the share of held-out examples whose score is on their label's side of 0.5, in [0, 1]
 * @param auc       the area under the ROC curve of the held-out scores (ties count one half), in [0, 1]
 * @param trainSize how many examples it was fitted on, at least 1
 * @param testSize  how many were held out, at least 2 (one of each label)
 */
public record RewardMetrics(double accuracy, double auc, int trainSize, int testSize) {

    public RewardMetrics {
        if (!(accuracy >= 0 && accuracy <= 1)) {
            throw new IllegalArgumentException("accuracy must be in [0, 1], got " + accuracy);
        }
        if (!(auc >= 0 && auc <= 1)) {
            throw new IllegalArgumentException("auc must be in [0, 1], got " + auc);
        }
        if (trainSize < 1 || testSize < 2) {
            throw new IllegalArgumentException("trainSize must be >= 1 and testSize >= 2, got " + trainSize + " and "
                    + testSize);
        }
    }
}
