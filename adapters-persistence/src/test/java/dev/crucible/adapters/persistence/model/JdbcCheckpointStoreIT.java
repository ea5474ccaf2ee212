package dev.crucible.adapters.persistence.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.adapters.persistence.StoreContext;
import dev.crucible.application.job.JobQueue;
import dev.crucible.application.model.CheckpointStore;
import dev.crucible.application.model.TrajectoryLogStore;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.model.Checkpoint;
import dev.crucible.domain.model.Model;
import dev.crucible.domain.paging.PageRequest;
import dev.crucible.domain.paging.SortOrder;
import dev.crucible.domain.tenancy.EntityName;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** Checkpoints on a real PostgreSQL: the next step, the per-entity quota, pages by step, metrics as jsonb. */
class JdbcCheckpointStoreIT {

    @AutoClose
    private final StoreContext stores = StoreContext.start();
    private final CheckpointStore checkpoints = stores.bean(CheckpointStore.class);
    private final Model model = stores.model("ada", "m");

    @Test
    void eachAdditionTakesTheNextStepAndWritesItsFilesUnderIt() {
        List<Integer> written = new ArrayList<>();
        Checkpoint one = checkpoints.insertNext(model.id(), Instant.now(), written::add);
        Checkpoint two = checkpoints.insertNext(model.id(), Instant.now(), written::add);

        assertEquals(List.of(1, 2), List.of(one.step(), two.step()));
        assertEquals(List.of(1, 2), written);
        assertEquals(Optional.of(two.id()), checkpoints.find(model.id(), two.id()).map(Checkpoint::id));
        PageRequest first = PageRequest.of(Optional.empty(), 1, SortOrder.DESC).orElseThrow();
        assertEquals(List.of(2, 1), checkpoints.fetchPage(model.id(), first, Optional.empty()).stream()
                .map(Checkpoint::step).toList());
        assertEquals(List.of(1, 0), checkpoints.fetchPage(model.id(), first, Optional.of(2)).stream()
                .map(Checkpoint::step).toList());

        checkpoints.delete(model.id(), List.of(1));
        assertEquals(Set.of(0, 2), checkpoints.steps(model.id()));
    }

    @Test
    void anEntityAtItsCheckpointQuotaAddsNone() {
        EntityName ada = model.coordinates().entity();
        assertEquals(1, checkpoints.insertNextWithin(model.id(), ada, 1, Instant.now(), step -> { })
                .orElseThrow().step());
        Model other = stores.model("ada", "other");
        assertEquals(Optional.empty(), checkpoints.insertNextWithin(other.id(), ada, 1, Instant.now(), step -> {
            throw new AssertionError("no files for a refused checkpoint");
        }));
        assertEquals(Set.of(0), checkpoints.steps(other.id()), "step-0 checkpoints do not count");
    }

    @Test
    void metricsRoundTripAndLoggedMetricsMergeIntoTheLatestCheckpoint() {
        stores.queuedJob(model);
        UUID runner = UUID.randomUUID();
        JobQueue queue = stores.bean(JobQueue.class);
        TrainingJob running = queue.claimNext(runner, Instant.now()).orElseThrow();
        queue.complete(running, runner, 1, Map.of("loss", 0.125, "reward", -1.5), Instant.now());

        stores.bean(TrajectoryLogStore.class).log(model.id(), "val", List.of(), Map.of("reward", 2.0, "acc", 1.0));

        Checkpoint latest = checkpoints.fetchPage(model.id(), PageRequest.of(Optional.empty(), 1, SortOrder.DESC)
                .orElseThrow(), Optional.empty()).getFirst();
        assertEquals(Map.of("loss", 0.125, "reward", 2.0, "acc", 1.0), latest.metrics());
        assertEquals(Map.of(), checkpoints.fetchPage(model.id(), PageRequest.of(Optional.empty(), 1, SortOrder.ASC)
                .orElseThrow(), Optional.empty()).getFirst().metrics(), "step 0 untouched");
    }
}
