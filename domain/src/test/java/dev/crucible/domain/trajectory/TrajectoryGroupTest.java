package dev.crucible.domain.trajectory;

import static dev.crucible.domain.trajectory.Trajectories.group;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TrajectoryGroupTest {

    @Test
    void rewardStdDevIsThePopulationStandardDeviation() {
        // rewards 1,2,3,4: mean 2.5, squared deviations sum to 5, population variance 5/4.
        assertEquals(Math.sqrt(1.25), group(1, 2, 3, 4).rewardStdDev(), 1e-12);
        assertEquals(1.0, group(1, 3).rewardStdDev(), 1e-12);
    }

    @Test
    void rewardStdDevOfEqualRewardsIsZero() {
        assertEquals(0.0, group(0.7, 0.7, 0.7).rewardStdDev(), 1e-12);
    }

    @Test
    void rewardStdDevOfFewerThanTwoTrajectoriesIsZero() {
        assertEquals(0.0, group(5).rewardStdDev());
        assertEquals(0.0, group().rewardStdDev());
    }

    @Test
    void acceptsZeroExceptionsAndRefusesNegativeOnes() {
        assertEquals(0, new TrajectoryGroup(List.of(), 0, Map.of()).exceptionCount());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new TrajectoryGroup(List.of(), -1, Map.of()));
        assertEquals("exceptionCount must be >= 0, got -1", e.getMessage());
    }

    @Test
    void trajectoriesAndMetricsAreImmutableCopies() {
        List<Trajectory> source = new ArrayList<>(List.of(Trajectories.trajectory(1)));
        TrajectoryGroup group = new TrajectoryGroup(source, 0, Map.of("m", 1.0));
        source.add(Trajectories.trajectory(2));
        assertEquals(1, group.trajectories().size());
        assertThrows(UnsupportedOperationException.class, () -> group.metrics().put("x", 1.0));
    }
}
