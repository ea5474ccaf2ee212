package dev.crucible.application.primitives;

import static dev.crucible.application.primitives.InMemorySavedStates.ADA;
import static dev.crucible.application.primitives.InMemorySavedStates.BOB;
import static dev.crucible.application.primitives.InMemorySavedStates.T;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.application.model.DeleteCheckpointsUseCase;
import dev.crucible.domain.model.CheckpointDeletion;
import dev.crucible.domain.model.ModelId;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which Crucible checkpoints a saved state's deletion asks to delete, and what it answers. */
class DeleteSavedStateServiceTest {

    private static final int LATEST = 3;

    private final InMemorySavedStates store = new InMemorySavedStates();
    private final List<Set<Integer>> asked = new ArrayList<>();
    /** Crucible's rule, as the real use case applies it: the latest step is refused. */
    private final DeleteCheckpointsUseCase checkpoints = command -> {
        asked.add(command.steps());
        return CheckpointDeletion.plan(command.steps(), Set.of(0, 1, 2, 3), LATEST);
    };
    private final DeleteSavedStateService service = new DeleteSavedStateService(store, checkpoints);
    private final ModelId run = store.addRun(ADA.entity(), T);

    @Test
    void aStepNoOtherNameUsesIsDeletedWithItsName() {
        store.nameState(run, TinkerPath.SAMPLER_WEIGHTS, "s1", 2, T);
        DeleteSavedStateUseCase.Deleted deleted = done(service.delete(ADA, run.toString(), "sampler_weights", "s1"));
        assertTrue(deleted.checkpointDeleted());
        assertEquals(List.of(Set.of(2)), asked);
        assertEquals(List.of(), store.listStates(run));
    }

    @Test
    void aStepAnotherNameStillUsesIsKept() {
        store.nameState(run, TinkerPath.WEIGHTS, "a", 2, T);
        store.nameState(run, TinkerPath.SAMPLER_WEIGHTS, "b", 2, T.plusSeconds(1));
        assertFalse(done(service.delete(ADA, run.toString(), "weights", "a")).checkpointDeleted());
        assertEquals(List.of(), asked, "the checkpoint was not asked to go");
        assertEquals(List.of("b"), store.listStates(run).stream().map(SavedState::name).toList());
    }

    @Test
    void theLatestStepLosesItsNameButStaysAsCrucibleSays() {
        store.nameState(run, TinkerPath.WEIGHTS, "w", LATEST, T);
        assertFalse(done(service.delete(ADA, run.toString(), "weights", "w")).checkpointDeleted());
        assertEquals(List.of(Set.of(LATEST)), asked);
        assertEquals(List.of(), store.listStates(run));
    }

    @Test
    void unknownNamesOtherEntitiesAndBadKindsAreRefusedAndDeleteNothing() {
        store.nameState(run, TinkerPath.WEIGHTS, "w", 1, T);
        assertRefused(service.delete(BOB, run.toString(), "weights", "w"), Refusal.Reason.NOT_FOUND, "training_run_id");
        assertRefused(service.delete(ADA, run.toString(), "weights", "x"), Refusal.Reason.NOT_FOUND, "checkpoint_id");
        assertRefused(service.delete(ADA, run.toString(), "sampler_weights", "w"), Refusal.Reason.NOT_FOUND,
                "checkpoint_id");
        assertRefused(service.delete(ADA, run.toString(), "optimizer", "w"), Refusal.Reason.INVALID, "checkpoint_id");
        assertRefused(service.delete(ADA, "not-a-run", "weights", "w"), Refusal.Reason.NOT_FOUND, "training_run_id");
        assertEquals(List.of(), asked);
        assertEquals(1, store.listStates(run).size());
    }

    private static <T> T done(Outcome<T> outcome) {
        return outcome.orElseThrow();
    }

    private static void assertRefused(Outcome<?> outcome, Refusal.Reason reason, String param) {
        Refusal refusal = ((Outcome.Refused<?>) outcome).refusal();
        assertEquals(reason, refusal.reason(), refusal.message());
        assertEquals(param, refusal.param());
    }
}
