package dev.crucible.application.primitives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.crucible.application.fakes.InMemoryOperationLog;
import dev.crucible.application.fakes.InMemoryProcessRegistry;
import dev.crucible.application.process.ProcessIdentity;
import dev.crucible.application.process.ProcessRole;
import dev.crucible.domain.tenancy.EntityName;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Recovery per process: only the operations of a process that stopped beating (or left) are failed. */
class OperationRecoveryTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final Duration STALE = Duration.ofSeconds(10);
    private static final EntityName ADA = new EntityName("ada");

    private final InMemoryProcessRegistry processes = new InMemoryProcessRegistry();
    private final InMemoryOperationLog log = new InMemoryOperationLog(processes);
    private final ProcessIdentity a = ProcessIdentity.start(ProcessRole.ALL);
    private final ProcessIdentity b = ProcessIdentity.start(ProcessRole.ALL);

    private OperationRecovery recovery(ProcessIdentity self, Instant at) {
        return new OperationRecovery(log, processes, self, STALE, Clock.fixed(at, ZoneOffset.UTC));
    }

    private UUID accept(ProcessIdentity by) {
        UUID id = UUID.randomUUID();
        log.writtenBy(by.id()).insertUnlessSequenced(new Operation(id, ADA, OperationKind.OPTIM_STEP,
                Optional.empty(), Optional.of("run:" + id), OptionalLong.of(1), "sha:1", T0));
        return id;
    }

    private OperationState state(UUID id) {
        return log.find(ADA, id).orElseThrow().state();
    }

    @Test
    void theOperationsOfALiveProcessAreLeftPending() {
        recovery(a, T0).beat();
        UUID held = accept(a);

        assertEquals(0, recovery(b, T0.plusSeconds(5)).beat());
        assertInstanceOf(OperationState.Pending.class, state(held));
    }

    @Test
    void theOperationsOfAProcessWhoseHeartbeatWentStaleFailAsTheServersFault() {
        recovery(a, T0).beat();
        UUID held = accept(a);

        assertEquals(1, recovery(b, T0.plus(STALE).plusSeconds(1)).beat());
        assertEquals(new OperationState.Failed(OperationRecovery.ORPHANED, FailureCategory.SERVER), state(held));
    }

    @Test
    void aProcessThatLeavesFailsItsOwnOperationsAtOnceAndNoOneElses() {
        recovery(a, T0).beat();
        recovery(b, T0).beat();
        UUID ofA = accept(a);
        UUID ofB = accept(b);

        assertEquals(1, recovery(a, T0).leave());
        assertInstanceOf(OperationState.Failed.class, state(ofA));
        assertInstanceOf(OperationState.Pending.class, state(ofB));
        assertEquals(0, recovery(b, T0.plusSeconds(1)).beat(), "a process that left owns nothing any more");
    }

    @Test
    void operationsOfAnUnknownOwnerAreFailedOnTheFirstBeat() {
        UUID before = accept(ProcessIdentity.start(ProcessRole.ALL));

        assertEquals(1, recovery(a, T0).beat());
        assertInstanceOf(OperationState.Failed.class, state(before));
    }

    @Test
    void rejectsANonPositiveStaleLimit() {
        assertThrows(IllegalArgumentException.class, () -> new OperationRecovery(log, processes, a, Duration.ZERO,
                Clock.systemUTC()));
    }
}
