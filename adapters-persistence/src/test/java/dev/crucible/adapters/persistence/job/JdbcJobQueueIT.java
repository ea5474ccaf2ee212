package dev.crucible.adapters.persistence.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.adapters.persistence.StoreContext;
import dev.crucible.application.job.JobCompletion;
import dev.crucible.application.job.JobQueue;
import dev.crucible.application.job.JobStore;
import dev.crucible.application.model.CheckpointStore;
import dev.crucible.domain.job.JobId;
import dev.crucible.domain.job.JobStatus;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.model.Model;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The runner's queue on a real PostgreSQL: {@code FOR UPDATE SKIP LOCKED} claims under concurrent claimers, and
 * the checkpoint-step conflict at a job's end.
 */
// A claim that waited on a lock would hang (a JDBC read ignores interrupts): the test runs in a thread of its own so
// that this guard fails it instead. It times nothing.
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class JdbcJobQueueIT {

    @AutoClose
    private final StoreContext stores = StoreContext.start();
    private final JobQueue queue = stores.bean(JobQueue.class);

    @Test
    void twoConcurrentClaimersClaimEachJobExactlyOnce() throws Exception {
        List<JobId> queued = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            queued.add(stores.queuedJob(stores.model("ada", "m" + i)).id());
        }
        CountDownLatch start = new CountDownLatch(1);
        try (ExecutorService claimers = Executors.newFixedThreadPool(2)) {
            List<Future<List<JobId>>> claims = List.of(claimers.submit(() -> claimAll(start)),
                    claimers.submit(() -> claimAll(start)));
            start.countDown();
            List<JobId> claimed = new ArrayList<>(claims.get(0).get());
            claimed.addAll(claims.get(1).get());
            assertEquals(queued.size(), claimed.size(), "no job claimed twice: " + claimed);
            assertEquals(Set.copyOf(queued), Set.copyOf(claimed));
        }
    }

    private List<JobId> claimAll(CountDownLatch start) throws InterruptedException {
        start.await();
        UUID runner = UUID.randomUUID();
        List<JobId> mine = new ArrayList<>();
        for (Optional<TrainingJob> job = queue.claimNext(runner, Instant.now()); job.isPresent();
                job = queue.claimNext(runner, Instant.now())) {
            assertInstanceOf(JobStatus.Running.class, job.get().status());
            mine.add(job.get().id());
        }
        return mine;
    }

    @Test
    void aClaimerSkipsAJobAnotherClaimerHoldsInsteadOfWaitingForIt() throws Exception {
        TrainingJob first = stores.queuedJob(stores.model("ada", "first"));
        TrainingJob second = stores.queuedJob(stores.model("ada", "second"));
        try (Connection other = stores.connection()) {
            other.setAutoCommit(false);
            // Another claimer in the middle of its transaction: it has locked the oldest job and not yet committed.
            try (PreparedStatement lock = other.prepareStatement("SELECT id FROM training_jobs WHERE id = ? FOR UPDATE")) {
                lock.setObject(1, first.id().value());
                lock.executeQuery().close();
            }
            // Returns while the lock is still held, so it did not wait for it.
            Optional<TrainingJob> claimed = queue.claimNext(UUID.randomUUID(), Instant.now());
            assertEquals(Optional.of(second.id()), claimed.map(TrainingJob::id));
            assertEquals(Optional.empty(), queue.claimNext(UUID.randomUUID(), Instant.now()), "the held job is skipped");
            other.rollback();
        }
        assertEquals(Optional.of(first.id()), queue.claimNext(UUID.randomUUID(), Instant.now()).map(TrainingJob::id),
                "claimable once the other claimer let go");
    }

    @Test
    void aModelRunsOneJobAtATimeInTheOrderTheyWereQueued() {
        Model model = stores.model("ada", "m");
        TrainingJob older = stores.queuedJob(model);
        TrainingJob newer = stores.queuedJob(model);
        UUID runner = UUID.randomUUID();
        TrainingJob running = queue.claimNext(runner, Instant.now()).orElseThrow();
        assertEquals(older.id(), running.id());
        assertEquals(Optional.empty(), queue.claimNext(runner, Instant.now()), "the model has a job running");
        assertInstanceOf(JobCompletion.Completed.class, queue.complete(running, runner, 1, Map.of(), Instant.now()));
        assertEquals(Optional.of(newer.id()), queue.claimNext(runner, Instant.now()).map(TrainingJob::id));
    }

    @Test
    void aStepTakenMeanwhileFailsTheEndingAndWritesNoSecondCheckpoint() {
        Model model = stores.model("ada", "m");
        stores.queuedJob(model);
        UUID runner = UUID.randomUUID();
        TrainingJob running = queue.claimNext(runner, Instant.now()).orElseThrow();
        CheckpointStore checkpoints = stores.bean(CheckpointStore.class);
        // The trainer decided on step 1 when the job started; an adapter import takes step 1 meanwhile.
        assertEquals(1, checkpoints.insertNext(model.id(), Instant.now(), step -> { }).step());

        JobCompletion ending = queue.complete(running, runner, 1, Map.of("loss", 0.5), Instant.now());

        assertEquals(new JobCompletion.StepTaken(1), ending);
        assertEquals(Set.of(0, 1), checkpoints.steps(model.id()));
        assertInstanceOf(JobStatus.Running.class, stores.bean(JobStore.class).find(model.coordinates().entity(), running.id())
                .orElseThrow().status(), "the job is not ended by a refused ending");
        JobCompletion next = queue.complete(running, runner, 2, Map.of("loss", 0.25), Instant.now());
        assertInstanceOf(JobCompletion.Completed.class, next);
        assertEquals(Set.of(0, 1, 2), checkpoints.steps(model.id()));
    }

    @Test
    void onlyTheRunnerThatHoldsAJobMayEndIt() {
        stores.queuedJob(stores.model("ada", "m"));
        UUID runner = UUID.randomUUID();
        TrainingJob running = queue.claimNext(runner, Instant.now()).orElseThrow();
        assertEquals(new JobCompletion.NotHeld(), queue.complete(running, UUID.randomUUID(), 1, Map.of(), Instant.now()));
        assertTrue(queue.heartbeat(running, runner, Instant.now()));
        assertEquals(Set.of(running.id()), queue.stale(Instant.now().plusSeconds(60)).stream().map(TrainingJob::id)
                .collect(Collectors.toSet()));
    }
}
