package dev.crucible.application.model;

import static dev.crucible.application.fakes.Fixtures.ACME;
import static dev.crucible.application.fakes.Fixtures.ACME_CALLER;
import static dev.crucible.application.fakes.Fixtures.GLOBEX_CALLER;
import static dev.crucible.application.fakes.Fixtures.NOW;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertRefused;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.application.fakes.Fixtures;
import dev.crucible.application.fakes.InMemoryCheckpointStore;
import dev.crucible.application.fakes.InMemoryModelStore;
import dev.crucible.application.fakes.RecordingAdapterFiles;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.model.Checkpoint;
import dev.crucible.domain.model.CheckpointDeletion;
import dev.crucible.domain.model.CheckpointId;
import dev.crucible.domain.model.Model;
import dev.crucible.domain.tenancy.Caller;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DeleteCheckpointsServiceTest {

    private final InMemoryCheckpointStore checkpoints = new InMemoryCheckpointStore();
    private final InMemoryModelStore models = new InMemoryModelStore(checkpoints);
    private final RecordingAdapterFiles adapters = new RecordingAdapterFiles();
    private final DeleteCheckpointsService service = new DeleteCheckpointsService(models, checkpoints, adapters);
    private final Model model = models.add(Fixtures.model(ACME, "agent", 5));

    DeleteCheckpointsServiceTest() {
        for (int step : new int[] {0, 1, 3, 5}) {
            checkpoints.add(new Checkpoint(CheckpointId.random(), model.id(), step, Map.of(), NOW));
        }
    }

    private Outcome<CheckpointDeletion> delete(Caller caller, Integer... steps) {
        return service.delete(new DeleteCheckpointsUseCase.Command(caller, model.id(), Set.of(steps)));
    }

    private List<Integer> remainingSteps() {
        return checkpoints.of(model.id()).stream().map(Checkpoint::step).toList();
    }

    @Test
    void deletesExistingStepsAndTheirAdapterFiles() {
        CheckpointDeletion plan = value(delete(ACME_CALLER, 3, 0));
        assertEquals(new CheckpointDeletion(List.of(0, 3), List.of()), plan);
        assertEquals(List.of(1, 5), remainingSteps());
        assertEquals(List.of(new RecordingAdapterFiles.Step(model.id(), 0), new RecordingAdapterFiles.Step(model.id(), 3)),
                adapters.deletedSteps());
    }

    @Test
    void reportsUnknownStepsAndDeletesTheRest() {
        CheckpointDeletion plan = value(delete(ACME_CALLER, 1, 2, 4));
        assertEquals(new CheckpointDeletion(List.of(1), List.of(2, 4)), plan);
        assertEquals(List.of(0, 3, 5), remainingSteps());
    }

    @Test
    void onlyUnknownStepsDeleteNothing() {
        CheckpointDeletion plan = value(delete(ACME_CALLER, 7, 8));
        assertEquals(new CheckpointDeletion(List.of(), List.of(7, 8)), plan);
        assertEquals(List.of(), checkpoints.deleteCalls());
        assertEquals(List.of(), adapters.deletedSteps());
    }

    @Test
    void deletingTheLatestStepIsAConflictAndDeletesNothing() {
        assertRefused(delete(ACME_CALLER, 1, 5), Refusal.Reason.CONFLICT, "steps");
        assertEquals(List.of(0, 1, 3, 5), remainingSteps());
        assertEquals(List.of(), adapters.deletedSteps());
    }

    @Test
    void anotherEntitysModelIsNotFound() {
        assertRefused(delete(GLOBEX_CALLER, 1), Refusal.Reason.NOT_FOUND, "model_id");
        assertEquals(List.of(0, 1, 3, 5), remainingSteps());
    }
}
