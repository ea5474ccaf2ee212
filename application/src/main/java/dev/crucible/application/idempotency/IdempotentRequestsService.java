package dev.crucible.application.idempotency;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.idempotency.Claim;
import dev.crucible.domain.idempotency.IdempotencyKey;
import dev.crucible.domain.idempotency.IdempotentRequest;
import dev.crucible.domain.idempotency.RecordedAnswer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** Claims keys in the store, keeping each for {@code retention} (positive) after its first use. */
public record IdempotentRequestsService(IdempotencyStore store, Clock clock, Duration retention)
        implements IdempotentRequestsUseCase {

    public IdempotentRequestsService {
        if (!retention.isPositive()) {
            throw new IllegalArgumentException("retention must be positive, got " + retention);
        }
    }

    @Override
    public Outcome<Optional<RecordedAnswer>> begin(IdempotentRequest request) {
        Instant now = clock.instant();
        return switch (store.claim(request, now, now.minus(retention))) {
            case Claim.Granted granted -> Outcome.done(Optional.empty());
            case Claim.Answered answered -> Outcome.done(Optional.of(answered.answer()));
            case Claim.Pending pending -> Outcome.refused(Refusal.conflict(IdempotencyKey.HEADER,
                    "a request with this " + IdempotencyKey.HEADER + " is still being handled; retry it later"));
            case Claim.Reused reused -> Outcome.refused(new Refusal(Refusal.Reason.UNPROCESSABLE,
                    "this " + IdempotencyKey.HEADER + " was used for a different request; use a new key",
                    IdempotencyKey.HEADER));
        };
    }

    @Override
    public void record(IdempotentRequest request, RecordedAnswer answer) {
        store.record(request, answer);
    }

    @Override
    public void release(IdempotentRequest request) {
        store.release(request);
    }
}
