package dev.crucible.domain.job;

import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.EntityName;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * A training job's record (its input lives apart, in {@link JobSpec}, so reading a job stays cheap).
 *
 * @param id identity
 * @param type RL or SFT
 * @param modelId the model it trains
 * @param entity the owning tenant
 * @param status where it is in its lifecycle
 * @param createdAt when it was queued
 */
public record TrainingJob(JobId id, JobType type, ModelId modelId, EntityName entity, JobStatus status, Instant createdAt) {

    public TrainingJob {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(modelId, "modelId");
        Objects.requireNonNull(entity, "entity");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(createdAt, "createdAt");
    }

    /** A new job waiting for a runner. */
    public static TrainingJob queue(JobType type, ModelId modelId, EntityName entity, Instant now) {
        return new TrainingJob(JobId.random(), type, modelId, entity, new JobStatus.Queued(), now);
    }

    /** Claimed by a runner; only a queued job can start. */
    public TrainingJob start(Instant now, UUID runnerId) {
        if (!(status instanceof JobStatus.Queued)) {
            throw illegal("start");
        }
        return with(new JobStatus.Running(now, runnerId));
    }

    /** Ended well with checkpoint {@code step}; only a running job can complete. */
    public TrainingJob complete(Instant now, int step) {
        if (!(status instanceof JobStatus.Running running)) {
            throw illegal("complete");
        }
        return with(new JobStatus.Completed(running.startedAt(), now, step));
    }

    /** Ended badly; a queued or running job can fail. */
    public TrainingJob fail(Instant now, String errorMessage) {
        return switch (status) {
            case JobStatus.Queued q -> with(new JobStatus.Failed(null, now, errorMessage));
            case JobStatus.Running r -> with(new JobStatus.Failed(r.startedAt(), now, errorMessage));
            case JobStatus.Completed c -> throw illegal("fail");
            case JobStatus.Failed f -> throw illegal("fail");
            case JobStatus.Cancelled c -> throw illegal("fail");
        };
    }

    /** Stopped on request; a queued or running job can be cancelled. */
    public TrainingJob cancel(Instant now, String reason) {
        return switch (status) {
            case JobStatus.Queued q -> with(new JobStatus.Cancelled(null, now, reason));
            case JobStatus.Running r -> with(new JobStatus.Cancelled(r.startedAt(), now, reason));
            case JobStatus.Completed c -> throw illegal("cancel");
            case JobStatus.Failed f -> throw illegal("cancel");
            case JobStatus.Cancelled c -> throw illegal("cancel");
        };
    }

    private TrainingJob with(JobStatus next) {
        return new TrainingJob(id, type, modelId, entity, next, createdAt);
    }

    private IllegalStateException illegal(String transition) {
        return new IllegalStateException("cannot " + transition + " job " + id + " in state " + status.wireName());
    }
}
