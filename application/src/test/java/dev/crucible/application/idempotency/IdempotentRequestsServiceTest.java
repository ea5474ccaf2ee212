package dev.crucible.application.idempotency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.idempotency.Claim;
import dev.crucible.domain.idempotency.IdempotencyKey;
import dev.crucible.domain.idempotency.IdempotentRequest;
import dev.crucible.domain.idempotency.RecordedAnswer;
import dev.crucible.domain.tenancy.EntityName;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class IdempotentRequestsServiceTest {

    private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");
    private static final IdempotentRequest REQUEST = new IdempotentRequest(new EntityName("ivy"), "feedback",
            new IdempotencyKey("k1"), "f1");

    /** Answers each claim with the next scripted claim and remembers what it was asked. */
    private static final class ScriptedStore implements IdempotencyStore {
        final List<Claim> answers = new ArrayList<>();
        final List<Instant> expiredBefore = new ArrayList<>();
        final List<String> calls = new ArrayList<>();

        @Override
        public Claim claim(IdempotentRequest request, Instant now, Instant expiredBefore) {
            this.expiredBefore.add(expiredBefore);
            calls.add("claim");
            return answers.removeFirst();
        }

        @Override
        public void record(IdempotentRequest request, RecordedAnswer answer) {
            calls.add("record " + answer.status());
        }

        @Override
        public void release(IdempotentRequest request) {
            calls.add("release");
        }
    }

    private final ScriptedStore store = new ScriptedStore();
    private final IdempotentRequestsService service = new IdempotentRequestsService(store,
            Clock.fixed(NOW, ZoneOffset.UTC), Duration.ofHours(24));

    @Test
    void aGrantedKeyGoesAheadAndKeysOlderThanTheRetentionAreFree() {
        store.answers.add(new Claim.Granted());
        assertEquals(Optional.empty(), ((Outcome.Done<Optional<RecordedAnswer>>) service.begin(REQUEST)).value());
        assertEquals(List.of(NOW.minus(Duration.ofHours(24))), store.expiredBefore);
    }

    @Test
    void anAnsweredRequestIsAnsweredAgain() {
        RecordedAnswer answer = new RecordedAnswer(200, "{\"id\":\"x\"}");
        store.answers.add(new Claim.Answered(answer));
        assertEquals(Optional.of(answer), ((Outcome.Done<Optional<RecordedAnswer>>) service.begin(REQUEST)).value());
    }

    @Test
    void aPendingKeyIsAConflictAndAReusedOneUnprocessable() {
        store.answers.add(new Claim.Pending());
        store.answers.add(new Claim.Reused());
        assertRefused(service.begin(REQUEST), Refusal.Reason.CONFLICT);
        assertRefused(service.begin(REQUEST), Refusal.Reason.UNPROCESSABLE);
    }

    @Test
    void recordAndReleaseReachTheStore() {
        service.record(REQUEST, new RecordedAnswer(200, "{}"));
        service.release(REQUEST);
        assertEquals(List.of("record 200", "release"), store.calls);
    }

    @Test
    void theRetentionMustBePositiveAndOnlySuccessIsRecorded() {
        assertThrows(IllegalArgumentException.class,
                () -> new IdempotentRequestsService(store, Clock.systemUTC(), Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> new RecordedAnswer(404, "{}"));
    }

    private static void assertRefused(Outcome<?> outcome, Refusal.Reason reason) {
        Refusal refusal = assertInstanceOf(Outcome.Refused.class, outcome).refusal();
        assertEquals(reason, refusal.reason());
        assertEquals(IdempotencyKey.HEADER, refusal.param());
    }
}
