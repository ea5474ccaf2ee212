package dev.crucible.domain.trajectory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TrajectoryTest {

    @Test
    void keepsItsParts() {
        History history = Trajectories.history();
        Trajectory t = new Trajectory(history, List.of(history), -2.5, Map.of("len", 3.0));
        assertEquals(history, t.history());
        assertEquals(List.of(history), t.additionalHistories());
        assertEquals(-2.5, t.reward());
        assertEquals(Map.of("len", 3.0), t.metrics());
    }

    @Test
    void refusesANonFiniteReward() {
        History history = Trajectories.history();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Trajectory(history, List.of(), Double.NaN, Map.of()));
        assertEquals("reward must be finite, got NaN", e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> new Trajectory(history, List.of(), Double.NEGATIVE_INFINITY, Map.of()));
    }

    @Test
    void refusesNullParts() {
        History history = Trajectories.history();
        assertThrows(NullPointerException.class, () -> new Trajectory(null, List.of(), 0, Map.of()));
        assertThrows(NullPointerException.class, () -> new Trajectory(history, null, 0, Map.of()));
        assertThrows(NullPointerException.class, () -> new Trajectory(history, List.of(), 0, null));
    }
}
