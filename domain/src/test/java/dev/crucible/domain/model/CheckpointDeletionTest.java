package dev.crucible.domain.model;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertRefused;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.crucible.kernel.refusal.Refusal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CheckpointDeletionTest {

    private static final Set<Integer> EXISTING = Set.of(0, 1, 2, 5, 9);

    @Test
    void deletingTheLatestStepIsAConflictOnSteps() {
        String message = assertRefused(CheckpointDeletion.plan(Set.of(1, 9), EXISTING, 9), Refusal.Reason.CONFLICT, "steps");
        assertEquals("step 9 is the latest checkpoint and cannot be deleted", message);
    }

    @Test
    void existingStepsAreDeletedInAscendingOrder() {
        CheckpointDeletion plan = value(CheckpointDeletion.plan(Set.of(5, 0, 2), EXISTING, 9));
        assertEquals(List.of(0, 2, 5), plan.toDelete());
        assertEquals(List.of(), plan.notFound());
    }

    @Test
    void unknownStepsAreReportedSortedNotRefused() {
        CheckpointDeletion plan = value(CheckpointDeletion.plan(Set.of(7, 1, 42, 3), EXISTING, 9));
        assertEquals(List.of(1), plan.toDelete());
        assertEquals(List.of(3, 7, 42), plan.notFound());
    }

    @Test
    void nothingRequestedIsAnEmptyPlan() {
        assertEquals(new CheckpointDeletion(List.of(), List.of()), value(CheckpointDeletion.plan(Set.of(), EXISTING, 9)));
    }

    @Test
    void listsAreImmutableCopies() {
        List<Integer> delete = new ArrayList<>(List.of(1));
        CheckpointDeletion plan = new CheckpointDeletion(delete, List.of());
        delete.add(2);
        assertEquals(List.of(1), plan.toDelete());
        assertThrows(UnsupportedOperationException.class, () -> plan.notFound().add(3));
    }
}
