package dev.crucible.domain.job;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * Something a job reported as it ran.
 *
 * @param id identity and listing cursor
 * @param jobId the job
 * @param type what happened
 * @param data event details; {@code gradient_step} data holds numbers only (the ART client converts every value)
 * @param createdAt when it was written
 */
public record JobEvent(UUID id, JobId jobId, JobEventType type, Map<String, Object> data, Instant createdAt) {

    public JobEvent {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(createdAt, "createdAt");
        data = Map.copyOf(Objects.requireNonNull(data, "data"));
        if (type == JobEventType.GRADIENT_STEP && !data.values().stream().allMatch(v -> v instanceof Number)) {
            throw new IllegalArgumentException("gradient_step data must hold numbers only, got " + data);
        }
    }

    public static JobEvent of(JobId jobId, JobEventType type, Map<String, Object> data, Instant now) {
        return new JobEvent(UUID.randomUUID(), jobId, type, data, now);
    }

    /** The job went back to the queue, with why (data {@code reason}). */
    public static JobEvent requeued(JobId jobId, String reason, Instant now) {
        return of(jobId, JobEventType.TRAINING_REQUEUED, Map.of("reason", reason), now);
    }

    /** The terminal failure event, carrying the message the client raises. */
    public static JobEvent failed(JobId jobId, String errorMessage, Instant now) {
        return of(jobId, JobEventType.TRAINING_FAILED, Map.of("error_message", errorMessage), now);
    }
}
