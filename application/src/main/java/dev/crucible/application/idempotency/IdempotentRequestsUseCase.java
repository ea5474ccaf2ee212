package dev.crucible.application.idempotency;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.idempotency.IdempotentRequest;
import dev.crucible.domain.idempotency.RecordedAnswer;
import java.util.Optional;

/**
 * Runs a keyed creating request at most once: {@link #begin} before it, then {@link #record} its answer or
 * {@link #release} the key when it was refused or failed.
 */
public interface IdempotentRequestsUseCase {

    /**
     * Empty when the request may go ahead (its key is now held for it); the first answer when the same request was
     * answered before; refused as a conflict while a request with the key is pending, and as unprocessable when the
     * key was used for a different request.
     */
    Outcome<Optional<RecordedAnswer>> begin(IdempotentRequest request);

    void record(IdempotentRequest request, RecordedAnswer answer);

    void release(IdempotentRequest request);
}
