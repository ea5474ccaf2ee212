package dev.crucible.application.primitives;

import dev.crucible.domain.tenancy.EntityName;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * The durable log of accepted operations, the source of every future's answer. An operation is written before its
 * request id is answered, so a restart loses none; its state changes once, from pending to done or failed.
 *
 * <p>Each operation written is owned by the process that wrote it (its {@link
 * dev.crucible.application.process.ProcessIdentity}), which runs it.
 *
 * <p>Thread-safe; each method is one transaction. Infrastructure failures are unchecked exceptions.
 */
public interface OperationLog {

    /**
     * Writes {@code operation} as pending, unless its sequence already holds an operation at its seq_id (also one
     * accepted at the same moment by another request).
     *
     * @return empty when written; the operation already at that place otherwise (nothing is written then)
     */
    Optional<StoredOperation> insertUnlessSequenced(Operation operation);

    /** The operation {@code requestId} of {@code entity}; empty when there is none or it is another entity's. */
    Optional<StoredOperation> find(EntityName entity, UUID requestId);

    /** Records the result of a pending operation; an operation already finished is left as it is. */
    void complete(UUID requestId, OperationResult result, Instant now);

    /** Records the failure of a pending operation; an operation already finished is left as it is. */
    void fail(UUID requestId, String message, FailureCategory category, Instant now);

    /**
     * Fails, with {@code message} and category {@code server}, every pending operation whose owner (the process that
     * accepted it and holds its run in memory) is dead: not registered in the {@link
     * dev.crucible.application.process.ProcessRegistry}, registered with a heartbeat older than {@code staleBefore},
     * or unknown (a row written before operations had owners).
     *
     * @return how many it failed
     */
    int failOrphaned(String message, Instant staleBefore, Instant now);

    /**
     * Fails, with {@code message} and category {@code server}, every pending operation {@code owner} holds: what a
     * process does as it stops, since their runs die with it.
     *
     * @return how many it failed
     */
    int failOwned(UUID owner, String message, Instant now);
}
