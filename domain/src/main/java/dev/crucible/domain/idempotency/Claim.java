package dev.crucible.domain.idempotency;

import java.util.Objects;

/** What the store found when a keyed request came in. */
public sealed interface Claim {

    /** The key is new (or its earlier use expired): it is now held for this request, which may go ahead. */
    record Granted() implements Claim {
    }

    /** The same request was answered before: answer it the same way, create nothing. */
    record Answered(RecordedAnswer answer) implements Claim {
        public Answered {
            Objects.requireNonNull(answer, "answer");
        }
    }

    /** A request with this key is still being handled (or was cut off before it was answered). */
    record Pending() implements Claim {
    }

    /** The key was used for a different request. */
    record Reused() implements Claim {
    }
}
