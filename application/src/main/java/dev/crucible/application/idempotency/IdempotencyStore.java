package dev.crucible.application.idempotency;

import dev.crucible.domain.idempotency.Claim;
import dev.crucible.domain.idempotency.IdempotentRequest;
import dev.crucible.domain.idempotency.RecordedAnswer;
import java.time.Instant;

/**
 * Where idempotency keys live, durably: a key outlives restarts for as long as it is kept. Thread-safe; each
 * method is one transaction, and two claims of one key at once are serialised (one is granted, the other sees it).
 */
public interface IdempotencyStore {

    /**
     * Looks {@code request}'s key up and holds it for this request when it is free. A key first used before
     * {@code expiredBefore} is free again (its record is dropped), as are all other expired keys.
     */
    Claim claim(IdempotentRequest request, Instant now, Instant expiredBefore);

    /** Records the answer of a granted request, which retries with the key then get. */
    void record(IdempotentRequest request, RecordedAnswer answer);

    /** Frees the key of a granted request that was refused or failed, so that nothing of it remains. */
    void release(IdempotentRequest request);
}
