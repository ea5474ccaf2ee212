package dev.crucible.adapters.persistence.primitives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.adapters.persistence.StoreContext;
import dev.crucible.application.primitives.FailureCategory;
import dev.crucible.application.primitives.ForwardBackwardOutput;
import dev.crucible.application.primitives.Operation;
import dev.crucible.application.primitives.OperationKind;
import dev.crucible.application.primitives.OperationLog;
import dev.crucible.application.primitives.OperationResult;
import dev.crucible.application.primitives.OperationState;
import dev.crucible.application.primitives.SampleOutput;
import dev.crucible.application.primitives.StoredOperation;
import dev.crucible.application.primitives.Tensor;
import dev.crucible.application.process.ProcessIdentity;
import dev.crucible.application.process.ProcessRegistry;
import dev.crucible.domain.model.Model;
import dev.crucible.domain.tenancy.EntityName;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** The operation log on a real PostgreSQL: places taken once, results kept exactly, tenancy, recovery per owner. */
class JdbcOperationLogIT {

    @AutoClose
    private final StoreContext stores = StoreContext.start();
    private final OperationLog log = stores.bean(OperationLog.class);
    private final EntityName ada = new EntityName("ada");
    private final Model run = stores.model("ada", "run-1");
    private final Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);

    private Operation op(long seq, String digest) {
        return new Operation(UUID.randomUUID(), ada, OperationKind.FORWARD_BACKWARD, Optional.of(run.id()),
                Optional.of(Operation.runSequence(run.id())), OptionalLong.of(seq), digest, now);
    }

    @Test
    void aPlaceInASequenceIsTakenOnceAndTheHolderIsAnswered() {
        Operation first = op(1, "sha:a");
        assertEquals(Optional.empty(), log.insertUnlessSequenced(first));
        Optional<StoredOperation> again = log.insertUnlessSequenced(op(1, "sha:b"));
        assertEquals(first, again.orElseThrow().operation(), "the operation at seq 1, with its own digest");
        assertEquals(new OperationState.Pending(), again.get().state());
        assertEquals(Optional.empty(), log.insertUnlessSequenced(op(2, "sha:a")));
    }

    @Test
    void resultsReadBackExactlyAndRepeatably() {
        Operation first = op(1, "sha:a");
        log.insertUnlessSequenced(first);
        ForwardBackwardOutput output = new ForwardBackwardOutput("TensorData", List.of(Map.of("logprobs",
                Tensor.Floats.of(-0.1f, -1e-7f, Float.MIN_VALUE, -3.4028235e38f), "ids", Tensor.Ints.of(1L << 40, -2))),
                Map.of("loss:sum", 1.2345678901234));
        log.complete(first.requestId(), new OperationResult.ForwardBackward(output), now);
        log.fail(first.requestId(), "too late", FailureCategory.SERVER, now);
        for (int i = 0; i < 2; i++) {
            assertEquals(new OperationState.Done(new OperationResult.ForwardBackward(output)),
                    log.find(ada, first.requestId()).orElseThrow().state());
        }
        assertEquals(Optional.empty(), log.find(new EntityName("bob"), first.requestId()), "another entity's");
    }

    @Test
    void everyKindOfResultSurvivesTheColumn() {
        SampleOutput sample = new SampleOutput(List.of(new SampleOutput.Sequence(new int[] {5, 6}, new float[] {-0.5f,
                -0.25f}, SampleOutput.StopReason.LENGTH)), new float[] {Float.NaN, -1.5f},
                List.of(List.of(), List.of(new SampleOutput.TokenLogprob(3, -0.1f))), 0);
        List<OperationResult> results = List.of(new OperationResult.ModelCreated(run.id()),
                new OperationResult.Unloaded(run.id()), new OperationResult.WeightsSaved("tinker://x/weights/a"),
                new OperationResult.WeightsLoaded("tinker://x/weights/a"), new OperationResult.OptimStep(Map.of()),
                new OperationResult.SamplerWeightsSaved(Optional.empty(), Optional.of("s-1")),
                new OperationResult.SamplerWeightsSaved(Optional.of("tinker://x/sampler_weights/b"), Optional.empty()),
                new OperationResult.Sampled(sample));
        long seq = 10;
        for (OperationResult result : results) {
            Operation o = op(seq++, "sha:x");
            log.insertUnlessSequenced(o);
            log.complete(o.requestId(), result, now);
            assertEquals(new OperationState.Done(result), log.find(ada, o.requestId()).orElseThrow().state());
        }
    }

    @Test
    void pendingOperationsOfADeadOwnerFailAsTheServersFaultAndALiveOwnersStayPending() {
        ProcessIdentity self = stores.bean(ProcessIdentity.class);
        ProcessRegistry processes = stores.bean(ProcessRegistry.class);
        Operation pending = op(1, "sha:a");
        Operation failed = op(2, "sha:a");
        Operation unsequenced = new Operation(UUID.randomUUID(), ada, OperationKind.SAMPLE, Optional.empty(),
                Optional.empty(), OptionalLong.empty(), "sha:s", now);
        log.insertUnlessSequenced(pending);
        log.insertUnlessSequenced(failed);
        assertEquals(Optional.empty(), log.insertUnlessSequenced(unsequenced));
        log.fail(failed.requestId(), "bad token", FailureCategory.USER, now);

        processes.beat(self, now);
        assertEquals(0, log.failOrphaned("the owner died", now.minusSeconds(10), now), "the owner beats");
        assertEquals(new OperationState.Pending(), log.find(ada, pending.requestId()).orElseThrow().state());

        assertEquals(2, log.failOrphaned("the owner died", now.plusSeconds(1), now), "its heartbeat is stale");
        assertEquals(new OperationState.Failed("the owner died", FailureCategory.SERVER),
                log.find(ada, pending.requestId()).orElseThrow().state());
        assertEquals(new OperationState.Failed("bad token", FailureCategory.USER),
                log.find(ada, failed.requestId()).orElseThrow().state());
        assertTrue(log.find(ada, unsequenced.requestId()).orElseThrow().state() instanceof OperationState.Failed);
    }

    @Test
    void aLeavingOwnerFailsItsOwnPendingOperations() {
        ProcessIdentity self = stores.bean(ProcessIdentity.class);
        Operation pending = op(1, "sha:a");
        log.insertUnlessSequenced(pending);

        assertEquals(0, log.failOwned(UUID.randomUUID(), "stopped", now), "another process owns none of them");
        assertEquals(1, log.failOwned(self.id(), "stopped", now));
        stores.bean(ProcessRegistry.class).leave(self.id());
        assertEquals(new OperationState.Failed("stopped", FailureCategory.SERVER),
                log.find(ada, pending.requestId()).orElseThrow().state());
    }
}
