package dev.crucible.adapters.persistence.job;

import dev.crucible.adapters.persistence.sql.Json;
import dev.crucible.adapters.persistence.sql.Sql;
import dev.crucible.domain.job.JobEvent;
import dev.crucible.domain.job.TrainingJob;
import jakarta.inject.Singleton;
import java.util.UUID;

/**
 * The writes every job path shares: a state change guarded by the state it leaves, and an event append.
 * Callers provide the transaction.
 */
@Singleton
public record JobWrites(Sql sql, Json json) {

    /**
     * Stores {@code next} if the stored job is still {@code expectedStatus} (and, when {@code expectedRunner} is
     * given, held by that runner).
     *
     * @return whether the row changed
     */
    public boolean transition(TrainingJob next, String expectedStatus, UUID expectedRunner) {
        JobRow row = JobRow.of(next);
        return sql.update("UPDATE training_jobs SET status = ?, training_start = ?, training_end = ?, error_message = ?, "
                + "result_step = ?, runner_id = ? "
                + "WHERE id = ? AND status = ? AND (CAST(? AS uuid) IS NULL OR runner_id = ?)",
                row.status(), row.trainingStart(), row.trainingEnd(), row.errorMessage(), row.resultStep(),
                row.runnerId(), row.id(), expectedStatus, expectedRunner, expectedRunner) == 1;
    }

    public void append(JobEvent event) {
        sql.update("INSERT INTO training_job_events (id, job_id, type, data, created_at) VALUES (?, ?, ?, CAST(? AS jsonb), ?)",
                event.id(), event.jobId().value(), event.type().wireName(), json.write(event.data()), event.createdAt());
    }
}
