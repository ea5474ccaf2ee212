package dev.crucible.application.primitives;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.util.UUID;

/** What a request meets at a place of a sequence that is taken: its own earlier copy, or another request. */
final class SequencePlaces {

    private SequencePlaces() {
    }

    /**
     * The original request id when {@code holder} is the same request (an identical retry); otherwise a 400 naming
     * {@code param}, never a conflict, which clients would retry for minutes.
     */
    static Outcome<UUID> retry(StoredOperation holder, String digest, String param, long place) {
        if (holder.operation().digest().equals(digest)) {
            return Outcome.done(holder.operation().requestId());
        }
        return Outcome.refused(Refusal.invalid(param, param + " " + place + " was used by a different request ("
                + "request_id " + holder.operation().requestId() + "); use the next one"));
    }
}
