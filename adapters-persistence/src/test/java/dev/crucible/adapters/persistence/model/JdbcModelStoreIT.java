package dev.crucible.adapters.persistence.model;

import static dev.crucible.adapters.persistence.StoreContext.BOB;
import static dev.crucible.adapters.persistence.StoreContext.ADA;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.crucible.adapters.persistence.StoreContext;
import dev.crucible.application.job.JobEventStore;
import dev.crucible.application.job.JobStore;
import dev.crucible.application.model.ModelStore;
import dev.crucible.domain.job.JobEvent;
import dev.crucible.domain.job.JobEventType;
import dev.crucible.domain.job.JobStatus;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.model.Checkpoint;
import dev.crucible.domain.model.Model;
import dev.crucible.domain.model.ModelCoordinates;
import dev.crucible.domain.paging.PageRequest;
import dev.crucible.domain.paging.SortOrder;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** Models on a real PostgreSQL: unique coordinates, tenant isolation, keyset pages, deletion with its jobs. */
class JdbcModelStoreIT {

    @AutoClose
    private final StoreContext stores = StoreContext.start();
    private final ModelStore models = stores.bean(ModelStore.class);

    @Test
    void theSameCoordinatesTwiceKeepTheFirstModel() {
        Model first = stores.model("ada", "m");
        Model again = Model.create(new ModelCoordinates(ADA, "p", "m"), "other-base", Instant.now());

        Optional<Model> existing = models.insertUnlessExists(again, Checkpoint.initial(again.id(), Instant.now()));

        assertEquals(Optional.of(first.id()), existing.map(Model::id));
        assertEquals(Optional.of("tiny-base"), models.find(first.coordinates()).map(Model::baseModel));
        assertEquals(Optional.empty(), models.find(ADA, again.id()));
        assertEquals(Optional.empty(), models.find(BOB, first.id()), "another entity's model");
        assertEquals(0, models.find(ADA, first.id()).orElseThrow().latestStep());
    }

    @Test
    void pagesFollowCreationOrderFromTheCursor() {
        List<Model> made = List.of(stores.model("ada", "a"), stores.model("ada", "b"), stores.model("ada", "c"));
        stores.model("bob", "d");

        PageRequest two = PageRequest.of(Optional.empty(), 2, SortOrder.ASC).orElseThrow();
        List<Model> page = models.fetchPage(ADA, two, Optional.empty());
        assertEquals(made.stream().map(Model::id).toList(), page.stream().map(Model::id).toList(), "limit + 1 rows");
        assertEquals(List.of(made.get(2).id()), models.fetchPage(ADA, two, Optional.of(page.get(1))).stream()
                .map(Model::id).toList());
        assertEquals(made.stream().map(Model::id).toList(), models.list(ADA).stream().map(Model::id).toList());
    }

    @Test
    void deletingAModelCancelsItsQueuedJobAndCountsItsCheckpoints() {
        Model model = stores.model("ada", "m");
        TrainingJob queued = stores.queuedJob(model);
        TrainingJob cancelled = queued.cancel(Instant.now(), "model deleted");
        JobEvent event = JobEvent.failed(queued.id(), "model deleted", Instant.now());

        assertEquals(1, models.delete(model, List.of(cancelled), List.of(event)));

        assertEquals(Optional.empty(), models.find(ADA, model.id()));
        assertEquals(List.of(JobEventType.TRAINING_FAILED), stores.bean(JobEventStore.class)
                .fetch(queued.id(), Optional.empty(), 10).stream().map(JobEvent::type).toList());
        assertInstanceOf(JobStatus.Cancelled.class,
                stores.bean(JobStore.class).find(ADA, queued.id()).orElseThrow().status());
        assertEquals(Map.of("CANCELLED", 1L), stores.bean(JobStore.class).countByStatus());
    }
}
