package dev.crucible.application.primitives;

import dev.crucible.kernel.refusal.Outcome;
import java.time.Clock;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs an accepted operation and writes how it ended to the log: its result, a refusal (or an engine's
 * {@link IllegalArgumentException}, which its contract keeps for arguments the caller controls) as a failure of
 * category {@code user}, anything else thrown as a failure of category {@code server}. Never throws, so the worker that runs it goes
 * on with the next operation. Then wakes the waiting futures.
 */
record OperationExecution(OperationLog log, OperationSignals signals, Clock clock) {

    private static final Logger LOG = Logger.getLogger(OperationExecution.class.getName());

    void run(UUID requestId, Supplier<Outcome<OperationResult>> work) {
        try {
            switch (work.get()) {
                case Outcome.Done<OperationResult> done -> log.complete(requestId, done.value(), clock.instant());
                case Outcome.Refused<OperationResult> refused -> log.fail(requestId, refused.refusal().message(),
                        FailureCategory.USER, clock.instant());
            }
        } catch (IllegalArgumentException e) {
            // the trainer's contract: arguments the caller controls (a saved state of another shape) fail so
            fail(requestId, "the request could not be applied: " + e.getMessage(), FailureCategory.USER);
        } catch (Throwable e) {
            LOG.log(Level.WARNING, "operation " + requestId + " failed", e);
            fail(requestId, "the operation failed on the server: " + e, FailureCategory.SERVER);
        } finally {
            signals.finished();
        }
    }

    private void fail(UUID requestId, String message, FailureCategory category) {
        try {
            log.fail(requestId, message, category, clock.instant());
        } catch (Throwable again) {
            LOG.log(Level.SEVERE, "operation " + requestId + " could not be marked failed", again);
        }
    }
}
