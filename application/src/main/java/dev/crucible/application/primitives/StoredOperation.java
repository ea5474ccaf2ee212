package dev.crucible.application.primitives;

import dev.crucible.kernel.invariant.NonNull;

/** An operation of the log with its current state. */
public record StoredOperation(Operation operation, OperationState state) {

    public StoredOperation {
        NonNull.components(StoredOperation.class, operation, state);
    }
}
