package dev.crucible.adapters.persistence.job;

import static dev.crucible.adapters.persistence.StoreContext.BOB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.adapters.persistence.StoreContext;
import dev.crucible.adapters.persistence.Trajectories;
import dev.crucible.application.job.JobEventStore;
import dev.crucible.application.job.JobStore;
import dev.crucible.domain.job.JobEvent;
import dev.crucible.domain.job.JobEventType;
import dev.crucible.domain.job.JobSpec;
import dev.crucible.domain.job.JobType;
import dev.crucible.domain.job.RlConfig;
import dev.crucible.domain.job.SftConfig;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.model.Model;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** Jobs, their input and their events on a real PostgreSQL: the JSON columns round-trip, limits hold. */
class JdbcJobStoreIT {

    @AutoClose
    private final StoreContext stores = StoreContext.start();
    private final JobStore jobs = stores.bean(JobStore.class);
    private final JobEventStore events = stores.bean(JobEventStore.class);
    private final Model model = stores.model("ada", "m");

    @Test
    void aJobAndItsInputReadBackAsStored() {
        TrainingJob job = TrainingJob.queue(JobType.SFT, model.id(), model.coordinates().entity(), Instant.now());
        SftConfig config = SftConfig.resolve(Map.of("batch_size", 3, "learning_rate", List.of(1e-4, 5e-5),
                "assistant_turns", "last")).orElseThrow();
        JobSpec.Sft spec = new JobSpec.Sft("https://example.com/d.jsonl", config,
                Map.of("note", "héllo \ud83d\ude00", "nested", Map.of("list", List.of(1, 2.5, true, "x"))));

        jobs.enqueue(job, spec);

        assertEquals(Optional.of(spec), jobs.spec(job.id()));
        assertEquals(Optional.of(job.id()), jobs.find(model.coordinates().entity(), job.id()).map(TrainingJob::id));
        assertEquals(Optional.empty(), jobs.find(BOB, job.id()),
                "another entity's job is not found");
        assertEquals(List.of(job.id()), jobs.active(model.id()).stream().map(TrainingJob::id).toList());
        assertEquals(Map.of("QUEUED", 1L), jobs.countByStatus());
    }

    @Test
    void anRlJobsTrajectoriesAndResolvedConfigReadBackAsStored() {
        TrainingJob job = TrainingJob.queue(JobType.RL, model.id(), model.coordinates().entity(), Instant.now());
        JobSpec.Rl spec = new JobSpec.Rl(Trajectories.sample(),
                RlConfig.resolve(Map.of("learning_rate", 1e-5, "loss_fn", "ppo")).orElseThrow());

        jobs.enqueue(job, spec);

        assertEquals(Optional.of(spec), jobs.spec(job.id()));
    }

    @Test
    void anEntityAtItsQueueLimitStoresNothing() {
        TrainingJob first = TrainingJob.queue(JobType.SFT, model.id(), model.coordinates().entity(), Instant.now());
        TrainingJob second = TrainingJob.queue(JobType.SFT, model.id(), model.coordinates().entity(), Instant.now());
        JobSpec spec = new JobSpec.Sft("https://example.com/d.jsonl", SftConfig.defaults(), Map.of());

        assertEquals(OptionalLong.empty(), jobs.enqueueWithin(first, spec, 1));
        assertEquals(OptionalLong.of(1), jobs.enqueueWithin(second, spec, 1));
        assertEquals(Optional.empty(), jobs.spec(second.id()));
    }

    @Test
    void eventDataRoundTripsInOrder() {
        TrainingJob job = stores.queuedJob(model);
        JobEvent started = JobEvent.of(job.id(), JobEventType.TRAINING_STARTED,
                Map.of("text", "tab\t bell\u0007 \ud83d\ude00", "n", 3, "x", 0.5, "list", List.of(Map.of("k", "v"))),
                Instant.now());
        JobEvent failed = JobEvent.failed(job.id(), "boom", Instant.now());

        events.append(started);
        events.append(failed);

        List<JobEvent> read = events.fetch(job.id(), Optional.empty(), 10);
        assertEquals(List.of(started.id(), failed.id()), read.stream().map(JobEvent::id).toList());
        assertEquals(started.data(), read.getFirst().data());
        assertTrue(events.contains(job.id(), failed.id()));
        assertEquals(List.of(failed.id()), events.fetch(job.id(), Optional.of(started.id()), 10).stream()
                .map(JobEvent::id).toList());
    }

    /**
     * PostgreSQL cannot store U+0000 in a jsonb (or text) value, so the HTTP adapter refuses it before any store sees
     * it (UnstorableTextIT); the store itself fails loudly and writes nothing, never a truncated value.
     */
    @Test
    void aNulPostgresCannotStoreFailsTheWriteAndLeavesNothing() {
        TrainingJob job = stores.queuedJob(model);
        JobEvent nul = JobEvent.of(job.id(), JobEventType.TRAINING_STARTED, Map.of("text", "a\u0000b"), Instant.now());

        assertThrows(RuntimeException.class, () -> events.append(nul));

        assertFalse(events.contains(job.id(), nul.id()));
        assertEquals(List.of(), events.fetch(job.id(), Optional.empty(), 10));
    }
}
