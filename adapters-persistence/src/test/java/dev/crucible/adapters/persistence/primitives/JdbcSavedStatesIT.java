package dev.crucible.adapters.persistence.primitives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.adapters.persistence.StoreContext;
import dev.crucible.application.primitives.LoraSettings;
import dev.crucible.application.primitives.Operation;
import dev.crucible.application.primitives.OperationKind;
import dev.crucible.application.primitives.OperationLog;
import dev.crucible.application.primitives.PrimitiveStore;
import dev.crucible.application.primitives.SavedState;
import dev.crucible.application.primitives.TinkerPath;
import dev.crucible.application.primitives.TrainingRun;
import dev.crucible.domain.model.Checkpoint;
import dev.crucible.domain.model.Model;
import dev.crucible.domain.model.ModelCoordinates;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.EntityName;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** The REST side's reads and deletes of runs' saved-state names on a real PostgreSQL. */
class JdbcSavedStatesIT {

    @AutoClose
    private final StoreContext stores = StoreContext.start();
    private final PrimitiveStore store = stores.bean(PrimitiveStore.class);
    private final EntityName ada = new EntityName("ada");
    private final Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);

    private ModelId run(EntityName entity, String name) {
        Model model = Model.create(new ModelCoordinates(entity, "tinker", name), "tiny-base", now);
        store.insertRun(model, Checkpoint.initial(model.id(), now), new TrainingRun(model.id(), entity,
                Optional.empty(), "tiny-base", new LoraSettings(4, false, true, true, OptionalLong.empty()), now));
        return model.id();
    }

    @Test
    void namesListOldestFirstAndADeletedNameFreesItsStep() {
        ModelId run = run(ada, "run-1");
        store.nameState(run, TinkerPath.SAMPLER_WEIGHTS, "s1", 2, now.plusSeconds(2));
        store.nameState(run, TinkerPath.WEIGHTS, "w1", 1, now.plusSeconds(1));
        assertEquals(List.of(new SavedState(run, TinkerPath.WEIGHTS, "w1", 1, now.plusSeconds(1)),
                new SavedState(run, TinkerPath.SAMPLER_WEIGHTS, "s1", 2, now.plusSeconds(2))), store.listStates(run));
        assertTrue(store.stepNamed(run, 2));

        assertTrue(store.deleteState(run, TinkerPath.SAMPLER_WEIGHTS, "s1"));
        assertFalse(store.deleteState(run, TinkerPath.SAMPLER_WEIGHTS, "s1"), "a name is deleted once");
        assertFalse(store.deleteState(run, TinkerPath.WEIGHTS, "s1"), "the kind is part of the name");
        assertFalse(store.stepNamed(run, 2));
        assertTrue(store.stepNamed(run, 1));
        assertEquals(List.of("w1"), store.listStates(run).stream().map(SavedState::name).toList());
    }

    @Test
    void runsAreCountedPerEntityAndTheLastRequestIsTheNewestOperation() {
        ModelId run = run(ada, "run-a");
        run(ada, "run-b");
        run(new EntityName("bob"), "run-c");
        assertEquals(2, store.countRuns(ada));
        assertEquals(0, store.countRuns(new EntityName("cyd")));

        assertEquals(Optional.empty(), store.lastRequestAt(run));
        OperationLog log = stores.bean(OperationLog.class);
        for (int seq = 1; seq <= 2; seq++) {
            log.insertUnlessSequenced(new Operation(UUID.randomUUID(), ada, OperationKind.OPTIM_STEP,
                    Optional.of(run), Optional.of(Operation.runSequence(run)), OptionalLong.of(seq), "d" + seq,
                    now.plusSeconds(seq)));
        }
        assertEquals(Optional.of(now.plusSeconds(2)), store.lastRequestAt(run));
    }
}
