package dev.crucible.domain.trajectory;

import static dev.crucible.domain.trajectory.Trajectories.group;
import static dev.crucible.domain.trajectory.Trajectories.trajectory;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SplitMetricsTest {

    private static final double EPS = 1e-12;

    @Test
    void aggregatesRewardExceptionsStdDevAndMetricsUnderTheSplit() {
        // A: rewards 1 and 3 (population std 1), one exception, len 10 and 20.
        TrajectoryGroup a = new TrajectoryGroup(
                List.of(trajectory(1, Map.of("len", 10.0)), trajectory(3, Map.of("len", 20.0))), 1, Map.of());
        // B: a single trajectory, so it has no spread and is left out of reward_std_dev.
        TrajectoryGroup b = new TrajectoryGroup(List.of(trajectory(5, Map.of("len", 30.0, "ok", 1.0))), 0, Map.of());
        // C: rewards 0 and 4 (population std 2), one exception.
        TrajectoryGroup c = new TrajectoryGroup(List.of(trajectory(0), trajectory(4)), 1, Map.of());

        Map<String, Double> metrics = SplitMetrics.aggregate("train", List.of(a, b, c));

        assertEquals(5, metrics.size(), metrics::toString);
        assertEquals(13.0 / 5, metrics.get("train/reward"), EPS);
        assertEquals(2.0 / 7, metrics.get("train/exception_rate"), EPS);
        assertEquals(1.5, metrics.get("train/reward_std_dev"), EPS);
        assertEquals(20.0, metrics.get("train/len"), EPS);
        assertEquals(1.0, metrics.get("train/ok"), EPS);
    }

    @Test
    void exceptionRateIsZeroWithoutExceptions() {
        assertEquals(0.0, SplitMetrics.aggregate("val", List.of(group(1, 1))).get("val/exception_rate"));
    }

    @Test
    void onlyExceptionsGiveAnExceptionRateOfOneAndNoReward() {
        Map<String, Double> metrics = SplitMetrics.aggregate("val", List.of(new TrajectoryGroup(List.of(), 2, Map.of())));
        assertEquals(Map.of("val/exception_rate", 1.0), metrics);
    }

    @Test
    void singletonGroupsGiveNoRewardStdDev() {
        Map<String, Double> metrics = SplitMetrics.aggregate("val", List.of(group(1), group(3)));
        assertEquals(Map.of("val/reward", 2.0, "val/exception_rate", 0.0), metrics);
    }

    @Test
    void nothingToAggregateIsEmpty() {
        assertEquals(Map.of(), SplitMetrics.aggregate("val", List.of()));
    }

    @Test
    void aggregateRefusesABadSplit() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SplitMetrics.aggregate("a/b", List.of(group(1))));
        assertEquals("split must be 1 to 64 letters, digits, '_', '.' or '-', got 'a/b'", e.getMessage());
        assertThrows(NullPointerException.class, () -> SplitMetrics.aggregate("val", null));
    }

    @Test
    void splitProblemAcceptsLettersDigitsAndPunctuationUpTo64() {
        assertNull(SplitMetrics.splitProblem("train"));
        assertNull(SplitMetrics.splitProblem("val_2.x-y"));
        assertNull(SplitMetrics.splitProblem("s".repeat(64)));
    }

    @Test
    void splitProblemRefusesEmptyLongNullOrOddCharacters() {
        assertEquals("split must be 1 to 64 letters, digits, '_', '.' or '-', got ''", SplitMetrics.splitProblem(""));
        assertEquals("split must be 1 to 64 letters, digits, '_', '.' or '-', got 'null'", SplitMetrics.splitProblem(null));
        assertEquals("split must be 1 to 64 letters, digits, '_', '.' or '-', got '" + "s".repeat(65) + "'",
                SplitMetrics.splitProblem("s".repeat(65)));
        assertEquals("split must be 1 to 64 letters, digits, '_', '.' or '-', got 'a b'", SplitMetrics.splitProblem("a b"));
    }
}
