package dev.crucible.adapters.persistence.job;

import dev.crucible.adapters.persistence.sql.Sql;
import dev.crucible.domain.job.JobId;
import dev.crucible.domain.job.JobStatus;
import dev.crucible.domain.job.JobType;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.EntityName;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.UUID;

/** A row of {@code training_jobs}: the status is spread over columns and rebuilt as a sealed state. */
record JobRow(UUID id, String type, UUID modelId, String entity, String status, Instant createdAt,
        Instant trainingStart, Instant trainingEnd, String errorMessage, Integer resultStep, UUID runnerId) {

    static final String COLUMNS = "id, type, model_id, entity, status, created_at, training_start, training_end, "
            + "error_message, result_step, runner_id";

    static JobRow read(ResultSet rs) throws SQLException {
        return new JobRow(Sql.uuid(rs, "id"), rs.getString("type"), Sql.uuid(rs, "model_id"), rs.getString("entity"),
                rs.getString("status"), Sql.instant(rs, "created_at"), Sql.instant(rs, "training_start"),
                Sql.instant(rs, "training_end"), rs.getString("error_message"), (Integer) rs.getObject("result_step"),
                Sql.uuid(rs, "runner_id"));
    }

    static JobRow of(TrainingJob job) {
        JobStatus status = job.status();
        return new JobRow(job.id().value(), job.type().name(), job.modelId().value(), job.entity().value(),
                status.wireName(), job.createdAt(), status.start().orElse(null), status.end().orElse(null),
                status.error().orElse(null), status.step().isPresent() ? status.step().getAsInt() : null,
                status.runner().orElse(null));
    }

    TrainingJob toDomain() {
        JobStatus state = switch (status) {
            case "QUEUED" -> new JobStatus.Queued();
            case "RUNNING" -> new JobStatus.Running(trainingStart, runnerId);
            case "COMPLETED" -> new JobStatus.Completed(trainingStart, trainingEnd, resultStep);
            case "FAILED" -> new JobStatus.Failed(trainingStart, trainingEnd, errorMessage);
            case "CANCELLED" -> new JobStatus.Cancelled(trainingStart, trainingEnd, errorMessage);
            default -> throw new IllegalStateException("unknown job status in database: " + status);
        };
        return new TrainingJob(new JobId(id), JobType.valueOf(type), new ModelId(modelId), new EntityName(entity),
                state, createdAt);
    }
}
