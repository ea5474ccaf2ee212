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
        JobStatus queued = new JobStatus.Queued();
        assertEquals(Optional.empty(), queued.start());
        assertEquals(Optional.empty(), queued.end());
        assertEquals(Optional.empty(), queued.error());
        assertEquals(OptionalInt.empty(), queued.step());
        assertEquals(Optional.empty(), queued.runner());
    }

    @Test
    void runningHasItsStartAndRunnerOnly() {
        JobStatus running = new JobStatus.Running(T0, RUNNER);
        assertEquals(Optional.of(T0), running.start());
        assertEquals(Optional.empty(), running.end());
        assertEquals(Optional.empty(), running.error());
        assertEquals(OptionalInt.empty(), running.step());
        assertEquals(Optional.of(RUNNER), running.runner());
    }

    @Test
    void completedHasStartEndAndResultStep() {
        JobStatus completed = new JobStatus.Completed(T0, T1, 40);
        assertEquals(Optional.of(T0), completed.start());
        assertEquals(Optional.of(T1), completed.end());
        assertEquals(Optional.empty(), completed.error());
        assertEquals(OptionalInt.of(40), completed.step());
        assertEquals(Optional.empty(), completed.runner());
    }

    @Test
    void failedHasItsMessageAsErrorAndNoStartWhenItNeverStarted() {
        JobStatus failed = new JobStatus.Failed(T0, T1, "out of memory");
        assertEquals(Optional.of(T0), failed.start());
        assertEquals(Optional.of(T1), failed.end());
        assertEquals(Optional.of("out of memory"), failed.error());
        assertEquals(OptionalInt.empty(), failed.step());
        assertEquals(Optional.empty(), failed.runner());
        assertEquals(Optional.empty(), new JobStatus.Failed(null, T1, "x").start());
    }

    @Test
    void cancelledHasItsReasonAsErrorAndNoStartWhenItNeverStarted() {
        JobStatus cancelled = new JobStatus.Cancelled(T0, T1, "model deleted");
        assertEquals(Optional.of(T0), cancelled.start());
        assertEquals(Optional.of(T1), cancelled.end());
        assertEquals(Optional.of("model deleted"), cancelled.error());
        assertEquals(OptionalInt.empty(), cancelled.step());
        assertEquals(Optional.empty(), cancelled.runner());
        assertEquals(Optional.empty(), new JobStatus.Cancelled(null, T1, "x").start());
    }
}
