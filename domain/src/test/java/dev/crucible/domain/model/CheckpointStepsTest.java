package dev.crucible.domain.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CheckpointStepsTest {

    @Test
    void theNextStepIsOnePastTheLatestEvenWithGaps() {
        CheckpointSteps steps = CheckpointSteps.of(Set.of(0, 3, 1));
        assertEquals(Optional.of(3), steps.latest());
        assertEquals(4, steps.next());
        assertTrue(steps.contains(1));
        assertFalse(steps.contains(2));
    }

    @Test
    void aModelWithNoCheckpointStartsAtStepZero() {
        CheckpointSteps steps = CheckpointSteps.of(List.of());
        assertEquals(Optional.empty(), steps.latest());
        assertEquals(0, steps.next());
    }

    @Test
    void rejectsANegativeStep() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CheckpointSteps.of(List.of(0, -1)));
        assertEquals("steps must be >= 0, got -1", e.getMessage());
    }
}
