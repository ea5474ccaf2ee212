package dev.crucible.domain.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class JobEventTest {

    private static final Instant NOW = Instant.parse("2025-03-01T10:00:00Z");
    private static final JobId JOB = JobId.random();

    @Test
    void gradientStepDataMayHoldNumbers() {
        JobEvent event = JobEvent.of(JOB, JobEventType.GRADIENT_STEP, Map.of("loss", 0.5, "step", 3), NOW);
        assertEquals(Map.of("loss", 0.5, "step", 3), event.data());
    }

    @Test
    void gradientStepDataRefusesNonNumbers() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> JobEvent.of(JOB, JobEventType.GRADIENT_STEP, Map.of("note", "hi"), NOW));
        assertEquals("gradient_step data must hold numbers only, got {note=hi}", e.getMessage());
    }

    @Test
    void otherEventsMayHoldAnyValues() {
        assertEquals(Map.of("note", "hi"), JobEvent.of(JOB, JobEventType.TRAINING_STARTED, Map.of("note", "hi"), NOW).data());
        assertEquals(Map.of("note", "hi"), JobEvent.of(JOB, JobEventType.TRAINING_ENDED, Map.of("note", "hi"), NOW).data());
    }

    @Test
    void failedCarriesTheErrorMessage() {
        JobEvent event = JobEvent.failed(JOB, "out of memory", NOW);
        assertEquals(JobEventType.TRAINING_FAILED, event.type());
        assertEquals(Map.of("error_message", "out of memory"), event.data());
        assertEquals(JOB, event.jobId());
        assertEquals(NOW, event.createdAt());
    }

    @Test
    void eventsGetFreshIds() {
        assertNotEquals(JobEvent.failed(JOB, "x", NOW).id(), JobEvent.failed(JOB, "x", NOW).id());
    }

    @Test
    void dataIsAnImmutableCopy() {
        Map<String, Object> data = new HashMap<>(Map.of("a", 1));
        JobEvent event = JobEvent.of(JOB, JobEventType.GRADIENT_STEP, data, NOW);
        data.put("b", 2);
        assertEquals(Map.of("a", 1), event.data());
        assertThrows(UnsupportedOperationException.class, () -> event.data().put("c", 3));
    }

    @Test
    void rejectsNullFields() {
        UUID id = UUID.randomUUID();
        assertThrows(NullPointerException.class, () -> new JobEvent(null, JOB, JobEventType.TRAINING_ENDED, Map.of(), NOW));
        assertThrows(NullPointerException.class, () -> new JobEvent(id, null, JobEventType.TRAINING_ENDED, Map.of(), NOW));
        assertThrows(NullPointerException.class, () -> new JobEvent(id, JOB, null, Map.of(), NOW));
        assertThrows(NullPointerException.class, () -> new JobEvent(id, JOB, JobEventType.TRAINING_ENDED, null, NOW));
        assertThrows(NullPointerException.class, () -> new JobEvent(id, JOB, JobEventType.TRAINING_ENDED, Map.of(), null));
    }
}
