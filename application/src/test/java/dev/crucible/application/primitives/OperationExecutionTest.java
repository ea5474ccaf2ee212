package dev.crucible.application.primitives;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.application.fakes.InMemoryOperationLog;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** How an operation ends: its result, a refusal or a caller's bad argument as the user's, anything else the server's. */
class OperationExecutionTest {

    private final InMemoryOperationLog log = new InMemoryOperationLog();
    private final OperationExecution execution = new OperationExecution(log, new OperationSignals(), Clock.systemUTC());
    private final EntityName ada = new EntityName("ada");

    private OperationState ended(Supplier<Outcome<OperationResult>> work) {
        Operation op = new Operation(UUID.randomUUID(), ada, OperationKind.LOAD_WEIGHTS, Optional.empty(),
                Optional.empty(), OptionalLong.empty(), "sha:1", Instant.now());
        log.insertUnlessSequenced(op);
        execution.run(op.requestId(), work);
        return log.find(ada, op.requestId()).orElseThrow().state();
    }

    @Test
    void eachEndingIsRecordedWithItsCategory() {
        OperationResult result = new OperationResult.Unloaded(ModelId.random());
        assertEquals(new OperationState.Done(result), ended(() -> Outcome.done(result)));
        assertEquals(new OperationState.Failed("no such path", FailureCategory.USER),
                ended(() -> Outcome.refused(Refusal.notFound("path", "no such path"))));
        assertEquals(FailureCategory.USER, ((OperationState.Failed) ended(() -> {
            throw new IllegalArgumentException("rank 4 adapter, rank 8 trainer");
        })).category());
        assertEquals(FailureCategory.SERVER, ((OperationState.Failed) ended(() -> {
            throw new IllegalStateException("engine broke");
        })).category());
    }
}
