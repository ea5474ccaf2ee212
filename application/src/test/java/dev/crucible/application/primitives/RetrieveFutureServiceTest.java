package dev.crucible.application.primitives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.crucible.application.fakes.InMemoryOperationLog;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Futures: answered when finished, pending after the long poll, not found for others. */
class RetrieveFutureServiceTest {

    private final InMemoryOperationLog log = new InMemoryOperationLog();
    private final OperationSignals signals = new OperationSignals();
    private final Caller ada = new Caller(new EntityName("ada"), UUID.randomUUID());
    private final Operation op = new Operation(UUID.randomUUID(), ada.entity(), OperationKind.OPTIM_STEP,
            Optional.empty(), Optional.of("run:x"), OptionalLong.of(1), "sha:1", Instant.now());

    @Test
    void aPendingFutureIsAnsweredPendingOnceTheLongPollEnds() {
        log.insertUnlessSequenced(op);
        Outcome<StoredOperation> answer = new RetrieveFutureService(log, signals, Duration.ZERO)
                .retrieve(ada, op.requestId().toString());
        assertInstanceOf(OperationState.Pending.class, answer.orElseThrow().state());
    }

    @Test
    void aWaitingFutureIsAnsweredWhenItsOperationFinishes() throws Exception {
        log.insertUnlessSequenced(op);
        RetrieveFutureService futures = new RetrieveFutureService(log, signals, Duration.ofMinutes(5));
        CompletableFuture<Outcome<StoredOperation>> waiting = CompletableFuture.supplyAsync(
                () -> futures.retrieve(ada, op.requestId().toString()));
        OperationResult result = new OperationResult.ModelCreated(ModelId.random());
        log.complete(op.requestId(), result, Instant.now());
        signals.finished();
        assertEquals(new OperationState.Done(result), waiting.get().orElseThrow().state());
    }

    @Test
    void anUnknownOrAnotherEntitysFutureIsNotFound() {
        log.insertUnlessSequenced(op);
        RetrieveFutureService futures = new RetrieveFutureService(log, signals, Duration.ZERO);
        Caller bob = new Caller(new EntityName("bob"), UUID.randomUUID());
        for (Outcome<StoredOperation> answer : java.util.List.of(futures.retrieve(bob, op.requestId().toString()),
                futures.retrieve(ada, "nope"), futures.retrieve(ada, UUID.randomUUID().toString()))) {
            assertInstanceOf(Outcome.Refused.class, answer);
            assertEquals(Refusal.Reason.NOT_FOUND, ((Outcome.Refused<StoredOperation>) answer).refusal().reason());
        }
    }
}
