package dev.crucible.domain.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class JobStatusTest {

    private static final Instant T0 = Instant.parse("2025-03-01T10:00:00Z");
    private static final Instant T1 = Instant.parse("2025-03-01T10:05:00Z");
    private static final UUID RUNNER = UUID.fromString("00000000-0000-0000-0000-00000000000a");

    @Test
    void queuedAndRunningAreNotTerminal() {
        assertFalse(new JobStatus.Queued().terminal());
        assertFalse(new JobStatus.Running(T0, UUID.randomUUID()).terminal());
    }

    @Test
    void completedFailedAndCancelledAreTerminal() {
        assertTrue(new JobStatus.Completed(T0, T1, 1).terminal());
        assertTrue(new JobStatus.Failed(null, T1, "x").terminal());
        assertTrue(new JobStatus.Cancelled(null, T1, "x").terminal());
    }

    @Test
    void wireNamesAreUpperCase() {
        assertEquals("QUEUED", new JobStatus.Queued().wireName());
        assertEquals("RUNNING", new JobStatus.Running(T0, UUID.randomUUID()).wireName());
        assertEquals("COMPLETED", new JobStatus.Completed(T0, T1, 1).wireName());
        assertEquals("FAILED", new JobStatus.Failed(T0, T1, "x").wireName());
        assertEquals("CANCELLED", new JobStatus.Cancelled(T0, T1, "x").wireName());
    }

    @Test
    void requiredFieldsAreChecked() {
        assertThrows(NullPointerException.class, () -> new JobStatus.Running(null, UUID.randomUUID()));
        assertThrows(NullPointerException.class, () -> new JobStatus.Running(T0, null));
        assertThrows(NullPointerException.class, () -> new JobStatus.Completed(null, T1, 1));
        assertThrows(NullPointerException.class, () -> new JobStatus.Completed(T0, null, 1));
        assertThrows(NullPointerException.class, () -> new JobStatus.Failed(T0, null, "x"));
        assertThrows(NullPointerException.class, () -> new JobStatus.Failed(T0, T1, null));
        assertThrows(NullPointerException.class, () -> new JobStatus.Cancelled(T0, null, "x"));
        assertThrows(NullPointerException.class, () -> new JobStatus.Cancelled(T0, T1, null));
    }

    @Test
    void queuedKnowsNothingYet() {
        assertKnows(new JobStatus.Queued(), Optional.empty(), Optional.empty(), Optional.empty(), OptionalInt.empty(),
                Optional.empty());
    }

    @Test
    void runningHasItsStartAndRunnerOnly() {
        assertKnows(new JobStatus.Running(T0, RUNNER), Optional.of(T0), Optional.empty(), Optional.empty(),
                OptionalInt.empty(), Optional.of(RUNNER));
    }

    @Test
    void completedHasStartEndAndResultStep() {
        assertKnows(new JobStatus.Completed(T0, T1, 40), Optional.of(T0), Optional.of(T1), Optional.empty(),
                OptionalInt.of(40), Optional.empty());
    }

    @Test
    void failedHasItsMessageAsErrorAndNoStartWhenItNeverStarted() {
        assertKnows(new JobStatus.Failed(T0, T1, "out of memory"), Optional.of(T0), Optional.of(T1),
                Optional.of("out of memory"), OptionalInt.empty(), Optional.empty());
        assertEquals(Optional.empty(), new JobStatus.Failed(null, T1, "x").start());
    }

    @Test
    void cancelledHasItsReasonAsErrorAndNoStartWhenItNeverStarted() {
        assertKnows(new JobStatus.Cancelled(T0, T1, "model deleted"), Optional.of(T0), Optional.of(T1),
                Optional.of("model deleted"), OptionalInt.empty(), Optional.empty());
        assertEquals(Optional.empty(), new JobStatus.Cancelled(null, T1, "x").start());
    }

    private static void assertKnows(JobStatus status, Optional<Instant> start, Optional<Instant> end,
            Optional<String> error, OptionalInt step, Optional<UUID> runner) {
        assertEquals(start, status.start());
        assertEquals(end, status.end());
        assertEquals(error, status.error());
        assertEquals(step, status.step());
        assertEquals(runner, status.runner());
    }
}
