package dev.crucible.domain.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class JobStatusTest {

    private static final Instant T0 = Instant.parse("2025-03-01T10:00:00Z");
    private static final Instant T1 = Instant.parse("2025-03-01T10:05:00Z");

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
}
