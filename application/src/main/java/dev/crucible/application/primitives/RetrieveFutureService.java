package dev.crucible.application.primitives;

import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

/**
 * Long-polls the operation log: reads the operation, and while it is pending waits for this process's next finished
 * operation (or a poll interval, for operations finished elsewhere) until {@code longPoll} has passed.
 */
public record RetrieveFutureService(OperationLog log, OperationSignals signals, Duration longPoll)
        implements RetrieveFutureUseCase {

    private static final Duration POLL = Duration.ofMillis(500);

    @Override
    public Outcome<StoredOperation> retrieve(Caller caller, String requestId) {
        Optional<UUID> id = RequestIds.parse(requestId);
        if (id.isEmpty()) {
            return notFound(requestId);
        }
        long deadline = System.nanoTime() + longPoll.toNanos();
        while (true) {
            long mark = signals.mark();
            Optional<StoredOperation> op = log.find(caller.entity(), id.get());
            if (op.isEmpty()) {
                return notFound(requestId);
            }
            long left = deadline - System.nanoTime();
            if (!(op.get().state() instanceof OperationState.Pending) || left <= 0) {
                return Outcome.done(op.get());
            }
            try {
                signals.awaitAfter(mark, Duration.ofNanos(Math.min(left, POLL.toNanos())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Outcome.done(op.get());
            }
        }
    }

    private static Outcome<StoredOperation> notFound(String requestId) {
        return Outcome.refused(Refusal.notFound("request_id", "no future with request_id '"
                + RequestIds.excerpt(requestId) + "'"));
    }
}
