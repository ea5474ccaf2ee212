package dev.crucible.application.primitives;

import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.kernel.invariant.NonNull;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * One accepted operation of the log, as it was accepted: who asked, what, on which run, where in which sequence, and
 * a digest of the request by which an identical retry is recognised.
 *
 * @param requestId the future's id, answered to the client
 * @param run       the training run it belongs to (a model id); empty for operations of no run
 * @param sequence  the ordered stream it belongs to ({@code run:<model id>}, {@code sampler:<id>}); empty when it is
 *                  not sequenced
 * @param seqId     its place in {@code sequence}, present exactly when {@code sequence} is
 * @param digest    SHA-256 of the request's canonical form
 */
public record Operation(UUID requestId, EntityName entity, OperationKind kind, Optional<ModelId> run,
        Optional<String> sequence, OptionalLong seqId, String digest, Instant createdAt) {

    public Operation {
        NonNull.components(Operation.class, requestId, entity, kind, run, sequence, seqId, digest, createdAt);
        if (sequence.isPresent() != seqId.isPresent()) {
            throw new IllegalArgumentException("sequence and seqId go together, got " + sequence + " and " + seqId);
        }
    }

    /** The sequence name of run {@code run}'s operations. */
    public static String runSequence(ModelId run) {
        return "run:" + run;
    }
}
