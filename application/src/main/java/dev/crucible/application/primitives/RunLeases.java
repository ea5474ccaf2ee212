package dev.crucible.application.primitives;

import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.domain.tenancy.EntityName;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Runs owned by one worker at a time, and the operations an {@code api} process queued for them (docs/decisions.md,
 * "Tinker runs on workers"). A run's lease names its owner and lasts until {@code lease_until}; the owner renews it
 * while it lives, so a run whose owner died (kill -9) is free once its lease ran out, and one whose owner stopped is
 * free at once. Only the owner takes the run's queued operations, lowest {@code seq_id} first, one at a time.
 *
 * <p>Thread-safe; each method is one transaction. Infrastructure failures are unchecked exceptions.
 */
public interface RunLeases {

    /**
     * Writes {@code operation} as queued (pending, with no owner, with {@code command} and the caller's key) unless its
     * place in its sequence is taken or the caller's key already has {@code maxPerKey} operations pending (queued or
     * running) on any process; concurrent writers of one key are serialised, so the bound holds across api processes.
     *
     * @return what became of it
     */
    Enqueued enqueue(Operation operation, Caller caller, RunCommand command, int maxPerKey);

    /** What {@link #enqueue} did. */
    enum Enqueued {
        /** Written. */
        QUEUED,
        /** Not written: another operation holds the place in the sequence (the log answers with it). */
        PLACE_TAKEN,
        /** Not written: the key has its most operations pending. */
        KEY_FULL
    }

    /**
     * Leases to {@code owner} until {@code until} at most {@code max} runs that have queued operations, are not
     * unloaded and have no owner or one whose lease ended before {@code now}; concurrent claimers never take the same
     * run (rows locked with {@code SKIP LOCKED}).
     *
     * @return the runs claimed, oldest queued operation first
     */
    List<Claimed> claim(UUID owner, int max, Instant now, Instant until);

    /** A run just claimed, with the entity it belongs to. */
    record Claimed(ModelId run, EntityName entity) {
        public Claimed {
            java.util.Objects.requireNonNull(run, "run");
            java.util.Objects.requireNonNull(entity, "entity");
        }
    }

    /**
     * Extends every lease {@code owner} holds to {@code until}.
     *
     * @return the runs it still holds (a lease another worker took over after it ran out is not among them)
     */
    Set<ModelId> renew(UUID owner, Instant until);

    /** Gives the run back (its lease ends now), when {@code owner} holds it. */
    void release(UUID owner, ModelId run);

    /**
     * The run's next queued operation, lowest {@code seq_id} first, now owned by {@code owner}; empty when it has none
     * or {@code owner} no longer holds the run's lease.
     */
    Optional<QueuedOperation> take(UUID owner, ModelId run);

    /**
     * The run was unloaded by its owner: it is never claimed again, and its operations still queued fail with
     * {@code message} (category {@code user}).
     */
    void unloaded(UUID owner, ModelId run, String message, Instant now);

    /** Whether run {@code run} was unloaded on a worker. */
    boolean isUnloaded(ModelId run);
}
