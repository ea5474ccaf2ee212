package dev.crucible.application.primitives;

import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.invariant.NonNull;
import java.util.UUID;

/**
 * An operation an {@code api} process accepted for a run it does not hold, as the run's owner takes it from the log:
 * who asked (the key its usage is counted under), which run, its place, and the command to run.
 */
public record QueuedOperation(UUID requestId, Caller caller, ModelId run, long seqId, RunCommand command) {

    public QueuedOperation {
        NonNull.components(QueuedOperation.class, requestId, caller, run, command);
    }
}
