package dev.crucible.application.reward;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Accuracy at 0.5 and the Mann-Whitney AUC against values worked by hand. */
class RankMetricsTest {

    @Test
    void aucCountsOrderedPairsAndHalvesTies() {
        // pairs (good, bad): (0.9,0.1) (0.9,0.4) (0.4,0.1) win, (0.4,0.4) ties: 3.5 of 4
        assertEquals(0.875, RankMetrics.auc(List.of(0.9, 0.4, 0.1, 0.4), List.of(true, true, false, false)), 1e-12);
        assertEquals(1.0, RankMetrics.auc(List.of(0.6, 0.2), List.of(true, false)), 1e-12);
        assertEquals(0.0, RankMetrics.auc(List.of(0.6, 0.2), List.of(false, true)), 1e-12);
        assertEquals(0.5, RankMetrics.auc(List.of(0.3, 0.3, 0.3), List.of(true, false, false)), 1e-12);
    }

    @Test
    void accuracyCountsHalfAsGood() {
        assertEquals(0.75, RankMetrics.accuracy(List.of(0.5, 0.49, 0.9, 0.2), List.of(true, false, false, false)),
                1e-12);
    }
}
