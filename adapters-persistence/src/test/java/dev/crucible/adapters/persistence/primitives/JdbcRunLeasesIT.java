package dev.crucible.adapters.persistence.primitives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.adapters.persistence.StoreContext;
import dev.crucible.application.primitives.Datum;
import dev.crucible.application.primitives.ForwardBackwardInput;
import dev.crucible.application.primitives.LoraSettings;
import dev.crucible.application.primitives.Operation;
import dev.crucible.application.primitives.OperationKind;
import dev.crucible.application.primitives.OperationLog;
import dev.crucible.application.primitives.OperationResult;
import dev.crucible.application.primitives.OperationState;
import dev.crucible.application.primitives.PrimitiveStore;
import dev.crucible.application.primitives.QueuedOperation;
import dev.crucible.application.primitives.RunCommand;
import dev.crucible.application.primitives.RunLeases;
import dev.crucible.application.primitives.Tensor;
import dev.crucible.application.primitives.TrainingRun;
import dev.crucible.domain.model.Checkpoint;
import dev.crucible.domain.model.Model;
import dev.crucible.domain.model.ModelCoordinates;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.domain.tenancy.EntityName;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Run leases and queued operations on a real PostgreSQL: two concurrent claimers take disjoint runs, a lease that ran
 * out is taken over and its old owner takes nothing more, operations are taken lowest seq_id first, commands read back
 * exactly, and queued rows are not failed as orphans while no one has taken them.
 */
// A claim that waited on a lock would hang: the guard fails the test instead. It times nothing.
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class JdbcRunLeasesIT {

    @AutoClose
    private final StoreContext stores = StoreContext.start();
    private final RunLeases leases = stores.bean(RunLeases.class);
    private final OperationLog log = stores.bean(OperationLog.class);
    private final EntityName ada = new EntityName("ada");
    private final Caller caller = new Caller(ada, UUID.randomUUID());
    private final Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    private final UUID a = UUID.randomUUID();
    private final UUID b = UUID.randomUUID();

    private ModelId run(String name) {
        Model model = Model.create(new ModelCoordinates(ada, "tinker", name), "tiny-base", now);
        stores.bean(PrimitiveStore.class).insertRun(model, Checkpoint.initial(model.id(), now), new TrainingRun(
                model.id(), ada, Optional.empty(), "tiny-base", new LoraSettings(4, false, true, true,
                        OptionalLong.empty()), now));
        return model.id();
    }

    private static final int PER_KEY = 100;

    private RunLeases.Enqueued enqueue(UUID id, ModelId run, long seq, Caller by, RunCommand command, int maxPerKey) {
        return leases.enqueue(new Operation(id, ada, OperationKind.OPTIM_STEP, Optional.of(run),
                Optional.of(Operation.runSequence(run)), OptionalLong.of(seq), "sha:" + seq, now), by, command,
                maxPerKey);
    }

    private UUID queue(ModelId run, long seq, RunCommand command) {
        UUID id = UUID.randomUUID();
        assertEquals(RunLeases.Enqueued.QUEUED, enqueue(id, run, seq, caller, command, PER_KEY));
        return id;
    }

    private static RunCommand.OptimStep step(double lr) {
        return new RunCommand.OptimStep(lr, 0.9, 0.95, 1e-12, 0.0, 1.0);
    }

    @Test
    void twoConcurrentClaimersClaimEachRunExactlyOnce() throws Exception {
        Set<ModelId> runs = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            ModelId run = run("run-" + i);
            queue(run, 1, step(0.1));
            runs.add(run);
        }
        run("idle"); // no queued operation: never claimed
        CountDownLatch start = new CountDownLatch(1);
        try (ExecutorService claimers = Executors.newFixedThreadPool(2)) {
            List<Future<List<ModelId>>> claims = List.of(claimers.submit(() -> claimAll(a, start)),
                    claimers.submit(() -> claimAll(b, start)));
            start.countDown();
            List<ModelId> claimed = new ArrayList<>(claims.get(0).get());
            claimed.addAll(claims.get(1).get());
            assertEquals(runs.size(), claimed.size(), "no run claimed twice");
            assertEquals(runs, Set.copyOf(claimed));
            assertEquals(Set.copyOf(claims.get(0).get()), leases.renew(a, now.plusSeconds(30)));
            assertEquals(Set.copyOf(claims.get(1).get()), leases.renew(b, now.plusSeconds(30)));
        }
    }

    private List<ModelId> claimAll(UUID owner, CountDownLatch start) throws InterruptedException {
        start.await();
        List<ModelId> mine = new ArrayList<>();
        while (true) {
            List<RunLeases.Claimed> batch = leases.claim(owner, 3, now, now.plusSeconds(30));
            if (batch.isEmpty()) {
                return mine;
            }
            batch.forEach(c -> {
                assertEquals(ada, c.entity());
                mine.add(c.run());
            });
        }
    }

    @Test
    void aLeaseThatRanOutIsTakenOverAndItsOldOwnerTakesNothingMore() {
        ModelId run = run("r");
        UUID first = queue(run, 2, step(0.2));
        UUID second = queue(run, 1, step(0.1));
        assertEquals(List.of(run), leases.claim(a, 5, now, now.plusSeconds(10)).stream().map(RunLeases.Claimed::run)
                .toList());
        assertEquals(List.of(), leases.claim(b, 5, now.plusSeconds(5), now.plusSeconds(15)), "a held lease");
        QueuedOperation lowest = leases.take(a, run).orElseThrow();
        assertEquals(second, lowest.requestId(), "lowest seq_id first");
        assertEquals(step(0.1), lowest.command());
        assertEquals(caller, lowest.caller());

        assertEquals(List.of(run), leases.claim(b, 5, now.plusSeconds(11), now.plusSeconds(21)).stream()
                .map(RunLeases.Claimed::run).toList(), "taken over once the lease ran out");
        assertEquals(Set.of(), leases.renew(a, now.plusSeconds(30)), "the old owner lost it");
        assertEquals(Optional.empty(), leases.take(a, run));
        assertEquals(first, leases.take(b, run).orElseThrow().requestId());
        assertEquals(Optional.empty(), leases.take(b, run), "nothing left queued");

        leases.release(a, run);
        assertEquals(Set.of(run), leases.renew(b, now.plusSeconds(30)), "only the owner gives a run back");
        leases.release(b, run);
        assertEquals(List.of(), leases.claim(a, 5, now, now.plusSeconds(10)), "nothing queued: nothing to claim");
        queue(run, 3, step(0.3));
        assertEquals(List.of(run), leases.claim(a, 5, now, now.plusSeconds(10)).stream().map(RunLeases.Claimed::run)
                .toList(), "a run given back (SIGTERM) is claimed at once, not when its lease would have run out");
    }

    @Test
    void anUnloadedRunFailsWhatIsQueuedAndIsNeverClaimedAgain() {
        ModelId run = run("u");
        queue(run, 1, new RunCommand.Unload());
        UUID after = queue(run, 2, step(0.1));
        leases.claim(a, 1, now, now.plusSeconds(10));
        assertInstanceOf(RunCommand.Unload.class, leases.take(a, run).orElseThrow().command());
        assertFalse(leases.isUnloaded(run));
        leases.unloaded(a, run, "not loaded", now);
        assertTrue(leases.isUnloaded(run));
        assertEquals(new OperationState.Failed("not loaded", dev.crucible.application.primitives.FailureCategory.USER),
                log.find(ada, after).orElseThrow().state());
        queue(run, 3, step(0.1));
        assertEquals(List.of(), leases.claim(b, 5, now, now.plusSeconds(10)));
    }

    @Test
    void queuedRowsAreNotOrphansUntilTakenAndAPlaceIsTakenOnce() {
        ModelId run = run("q");
        UUID taken = queue(run, 1, step(0.1));
        UUID waiting = queue(run, 2, step(0.1));
        assertEquals(RunLeases.Enqueued.PLACE_TAKEN, enqueue(UUID.randomUUID(), run, 1, caller, step(0.3), PER_KEY));
        leases.claim(a, 1, now, now.plusSeconds(10));
        leases.take(a, run);
        // Owner a never beat: what it took fails as the server's; what waits for a worker stays pending.
        log.failOrphaned("gone", now, now);
        assertInstanceOf(OperationState.Failed.class, log.find(ada, taken).orElseThrow().state(),
                "taken by a, whose process is not registered");
        assertInstanceOf(OperationState.Pending.class, log.find(ada, waiting).orElseThrow().state());
    }

    @Test
    void aKeyQueuesAtMostItsBoundOfPendingOperationsEvenFromConcurrentWriters() throws Exception {
        ModelId run = run("bounded");
        int max = 5;
        ExecutorService writers = Executors.newFixedThreadPool(4);
        try {
            List<Future<RunLeases.Enqueued>> answers = new ArrayList<>();
            for (int seq = 1; seq <= 20; seq++) {
                long place = seq;
                answers.add(writers.submit(() -> enqueue(UUID.randomUUID(), run, place, caller, step(0.1), max)));
            }
            Map<RunLeases.Enqueued, Integer> counts = new EnumMap<>(RunLeases.Enqueued.class);
            for (Future<RunLeases.Enqueued> answer : answers) {
                counts.merge(answer.get(), 1, Integer::sum);
            }
            assertEquals(Map.of(RunLeases.Enqueued.QUEUED, max, RunLeases.Enqueued.KEY_FULL, 20 - max), counts);
        } finally {
            writers.shutdownNow();
        }
        Caller otherKey = new Caller(ada, UUID.randomUUID());
        assertEquals(RunLeases.Enqueued.QUEUED, enqueue(UUID.randomUUID(), run, 21, otherKey, step(0.1), max),
                "the bound is per key");
        leases.claim(a, 1, now, now.plusSeconds(10));
        QueuedOperation first = leases.take(a, run).orElseThrow();
        assertEquals(RunLeases.Enqueued.KEY_FULL, enqueue(UUID.randomUUID(), run, 22, caller, step(0.1), max),
                "a running operation still counts");
        log.complete(first.requestId(), new OperationResult.OptimStep(Map.of()), now);
        assertEquals(RunLeases.Enqueued.QUEUED, enqueue(UUID.randomUUID(), run, 22, caller, step(0.1), max),
                "a finished one frees its place");
    }

    @Test
    void everyCommandReadsBackExactly() {
        ModelId run = run("c");
        List<RunCommand> commands = List.of(new RunCommand.ForwardBackward(new ForwardBackwardInput(List.of(
                new Datum(new int[] {1, 2, 3}, Map.of("target_tokens", Tensor.Ints.of(2, 3, 1L << 40), "weights",
                        Tensor.Floats.of(1f, 0.5f, Float.MIN_VALUE)))), "ppo", Map.of("clip_low_threshold", 0.8,
                                "clip_high_threshold", 1.2000000000000002), true)),
                step(3e-4), new RunCommand.SaveWeights("s"), new RunCommand.LoadWeights("tinker://x/weights/s", true),
                new RunCommand.SaveForSampler(Optional.empty(), OptionalLong.of(7)),
                new RunCommand.SaveForSampler(Optional.of("n"), OptionalLong.empty()), new RunCommand.Unload());
        for (int i = 0; i < commands.size(); i++) {
            queue(run, i + 1, commands.get(i));
        }
        leases.claim(a, 1, now, now.plusSeconds(10));
        for (RunCommand command : commands) {
            assertEquals(command, leases.take(a, run).orElseThrow().command());
        }
    }
}
