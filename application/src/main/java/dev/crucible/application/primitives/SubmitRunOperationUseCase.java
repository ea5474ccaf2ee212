package dev.crucible.application.primitives;

import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;
import java.util.UUID;

/**
 * Accepts one sequenced operation of a training run: checks it against the run's model, writes it to the operation
 * log and queues it on the run's worker, and answers its request id. An identical retry of a {@code (model_id,
 * seq_id)} gets the original request id; a different request under a used seq_id is refused (400), never a conflict
 * (clients retry 409s).
 */
public interface SubmitRunOperationUseCase {

    /**
     * @param modelId the run, as the client names it
     * @param digest  the request's digest (equal for identical requests)
     */
    record Command(Caller caller, String modelId, long seqId, RunCommand command, String digest) {
    }

    Outcome<UUID> submit(Command command);
}
