package dev.crucible.application.primitives;

import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * {@code create_model}: a training run, which is a new Crucible model of the caller's entity on a served base model,
 * held live in this process. Its future is finished when the request id is answered. An identical retry of a session's
 * {@code model_seq_id} gets the original request id; past the live-run bounds it is refused as an overload (429).
 */
public interface CreateRunUseCase {

    /**
     * @param session    the client session, when the request named one (its {@code model_seq_id} then dedupes)
     * @param modelSeqId the request's place among the session's {@code create_model} calls
     */
    record Command(Caller caller, Optional<UUID> session, OptionalLong modelSeqId, String baseModel,
            LoraSettings lora, String digest) {
    }

    Outcome<UUID> create(Command command);
}
