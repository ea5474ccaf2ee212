package dev.crucible.adapters.persistence.idempotency;

import static dev.crucible.adapters.persistence.StoreContext.ADA;
import static dev.crucible.adapters.persistence.StoreContext.BOB;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.adapters.persistence.StoreContext;
import dev.crucible.application.idempotency.IdempotencyStore;
import dev.crucible.domain.idempotency.Claim;
import dev.crucible.domain.idempotency.IdempotencyKey;
import dev.crucible.domain.idempotency.IdempotentRequest;
import dev.crucible.domain.idempotency.RecordedAnswer;
import java.time.Instant;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** Idempotency keys on a real PostgreSQL: granted once, pending, answered, reused, released and expired. */
class JdbcIdempotencyStoreIT {

    @AutoClose
    private final StoreContext stores = StoreContext.start();
    private final IdempotencyStore keys = stores.bean(IdempotencyStore.class);
    private final IdempotencyKey key = IdempotencyKey.parse("k-1").orElseThrow();
    private final IdempotentRequest request = new IdempotentRequest(ADA, "jobs", key, "sha:1");

    @Test
    void aKeyIsGrantedOnceThenAnsweredAsRecorded() {
        Instant now = Instant.now();
        Instant longAgo = now.minusSeconds(86_400);
        assertEquals(new Claim.Granted(), keys.claim(request, now, longAgo));
        assertEquals(new Claim.Pending(), keys.claim(request, now, longAgo));
        assertEquals(new Claim.Reused(), keys.claim(new IdempotentRequest(request.entity(), "jobs", key, "sha:2"),
                now, longAgo));
        assertEquals(new Claim.Granted(), keys.claim(new IdempotentRequest(BOB, "jobs", key,
                "sha:1"), now, longAgo), "keys are per entity");

        RecordedAnswer answer = new RecordedAnswer(201, "{\"id\": \"x\", \"note\": \"\u00e9\"}");
        keys.record(request, answer);
        keys.release(request);

        assertEquals(new Claim.Answered(answer), keys.claim(request, now, longAgo), "an answered key is kept");
        assertEquals(new Claim.Granted(), keys.claim(request, now.plusSeconds(10), now.plusSeconds(1)),
                "expired, it is granted again");
    }

    @Test
    void aReleasedKeyMayBeClaimedAgain() {
        Instant now = Instant.now();
        keys.claim(request, now, now.minusSeconds(60));
        keys.release(request);
        assertEquals(new Claim.Granted(), keys.claim(request, now, now.minusSeconds(60)));
    }
}
