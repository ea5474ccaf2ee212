package dev.crucible.application.primitives;

import dev.crucible.kernel.invariant.NonNull;

/** Where an operation is: accepted and not yet finished, finished with a result, or failed. */
public sealed interface OperationState permits OperationState.Pending, OperationState.Done, OperationState.Failed {

    /** Accepted, not finished: its future answers "try again". */
    record Pending() implements OperationState {
    }

    /** Finished; its future answers {@code result}, as often as it is asked. */
    record Done(OperationResult result) implements OperationState {
        public Done {
            NonNull.components(Done.class, result);
        }
    }

    /** Failed; its future answers {@code message} with its category. */
    record Failed(String message, FailureCategory category) implements OperationState {
        public Failed {
            NonNull.components(Failed.class, message, category);
        }
    }
}
