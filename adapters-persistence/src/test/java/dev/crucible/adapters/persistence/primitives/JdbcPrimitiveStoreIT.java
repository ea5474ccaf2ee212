package dev.crucible.adapters.persistence.primitives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.adapters.persistence.StoreContext;
import dev.crucible.application.model.ModelStore;
import dev.crucible.application.primitives.LoraSettings;
import dev.crucible.application.primitives.PrimitiveStore;
import dev.crucible.application.primitives.SamplingSession;
import dev.crucible.application.primitives.TrainingRun;
import dev.crucible.domain.model.Checkpoint;
import dev.crucible.domain.model.Model;
import dev.crucible.domain.model.ModelCoordinates;
import dev.crucible.domain.tenancy.EntityName;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.UUID;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** Sessions, runs and samplers on a real PostgreSQL, each visible to its own entity only. */
class JdbcPrimitiveStoreIT {

    @AutoClose
    private final StoreContext stores = StoreContext.start();
    private final PrimitiveStore store = stores.bean(PrimitiveStore.class);
    private final EntityName ada = new EntityName("ada");
    private final EntityName bob = new EntityName("bob");
    private final Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);

    @Test
    void aRunIsAModelOfItsEntity() {
        UUID session = UUID.randomUUID();
        store.insertSession(session, ada, List.of("t"), "0.24.1", now);
        Model model = Model.create(new ModelCoordinates(ada, "tinker", "run-1"), "tiny-base", now);
        TrainingRun run = new TrainingRun(model.id(), ada, Optional.of(session), "tiny-base",
                new LoraSettings(4, false, true, true, OptionalLong.of(7)), now);
        store.insertRun(model, Checkpoint.initial(model.id(), now), run);

        assertEquals(Optional.of(run), store.findRun(ada, model.id()));
        assertEquals(Optional.empty(), store.findRun(bob, model.id()));
        assertEquals(List.of(run), store.listRuns(ada, 10, 0));
        assertEquals(model.id(), stores.bean(ModelStore.class).find(ada, model.id()).orElseThrow().id());
        assertTrue(store.heartbeat(ada, session, now));
        assertFalse(store.heartbeat(bob, session, now));

        SamplingSession sampler = new SamplingSession(UUID.randomUUID(), ada, Optional.of(session), "tiny-base",
                Optional.of(model.id()), OptionalInt.of(0), Optional.of("tinker://x/sampler_weights/a"), now);
        store.insertSampler(sampler);
        assertEquals(Optional.of(sampler), store.findSampler(ada, sampler.id()));
        assertEquals(Optional.empty(), store.findSampler(bob, sampler.id()));

        store.nameState(model.id(), "weights", "s1", 1, now);
        store.nameState(model.id(), "weights", "s1", 2, now);
        assertEquals(OptionalInt.of(2), store.findState(ada, model.id(), "weights", "s1"), "a reused name moves");
        assertEquals(OptionalInt.empty(), store.findState(ada, model.id(), "sampler_weights", "s1"));
        assertEquals(OptionalInt.empty(), store.findState(bob, model.id(), "weights", "s1"));
    }
}
