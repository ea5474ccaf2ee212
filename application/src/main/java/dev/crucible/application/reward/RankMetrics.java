package dev.crucible.application.reward;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/** Accuracy at 0.5 and the ROC AUC of scores against labels. */
final class RankMetrics {

    private RankMetrics() {
    }

    /** The share of {@code scores} on their label's side of 0.5 (0.5 counts as good). */
    static double accuracy(List<Double> scores, List<Boolean> labels) {
        int right = 0;
        for (int i = 0; i < scores.size(); i++) {
            right += (scores.get(i) >= 0.5) == labels.get(i) ? 1 : 0;
        }
        return (double) right / scores.size();
    }

    /**
     * The area under the ROC curve by the Mann-Whitney U statistic: the probability that a good example scores above a
     * bad one, ties counting one half (tied scores share their mean rank). Needs both labels among {@code labels}.
     */
    static double auc(List<Double> scores, List<Boolean> labels) {
        int n = scores.size();
        Integer[] order = new Integer[n];
        Arrays.setAll(order, i -> i);
        Arrays.sort(order, Comparator.comparingDouble(scores::get));
        double positiveRanks = 0;
        long positives = 0;
        int i = 0;
        while (i < n) {
            int j = i;
            while (j + 1 < n && scores.get(order[j + 1]).equals(scores.get(order[i]))) {
                j++;
            }
            double meanRank = (i + j) / 2.0 + 1;
            for (int k = i; k <= j; k++) {
                if (labels.get(order[k])) {
                    positiveRanks += meanRank;
                    positives++;
                }
            }
            i = j + 1;
        }
        long negatives = n - positives;
        if (positives == 0 || negatives == 0) {
            throw new IllegalArgumentException("AUC needs both labels");
        }
        return (positiveRanks - positives * (positives + 1) / 2.0) / ((double) positives * negatives);
    }
}
