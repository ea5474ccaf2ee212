package dev.crucible.application.primitives;

import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;

/**
 * Answers a future: waits up to the long-poll bound for its operation to finish and returns its state then, pending
 * when it has not. Refused as not found when the request id is unknown or another entity's.
 */
public interface RetrieveFutureUseCase {

    Outcome<StoredOperation> retrieve(Caller caller, String requestId);
}
