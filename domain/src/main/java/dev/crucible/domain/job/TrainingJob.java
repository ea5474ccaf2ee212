package dev.crucible.domain.job;

import dev.crucible.kernel.invariant.NonNull;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.EntityName;
import java.time.Instant;
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
        NonNull.components(TrainingJob.class, id, type, modelId, entity, status, createdAt);
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

    /**
     * Back in the queue, as if never claimed: its runner's process stopped before it finished (SIGTERM). Only a
     * running job can be handed back; it keeps its place (its creation order) and starts again when claimed.
     */
    public TrainingJob requeue() {
        if (!(status instanceof JobStatus.Running)) {
            throw illegal("requeue");
        }
        return with(new JobStatus.Queued());
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
        return with(new JobStatus.Failed(startOfUnended("fail"), now, errorMessage));
    }

    /** Stopped on request; a queued or running job can be cancelled. */
    public TrainingJob cancel(Instant now, String reason) {
        return with(new JobStatus.Cancelled(startOfUnended("cancel"), now, reason));
    }

    /** When the job started, null while queued; an ended job cannot take {@code transition}. */
    private Instant startOfUnended(String transition) {
        if (status.terminal()) {
            throw illegal(transition);
        }
        return status.start().orElse(null);
    }

    private TrainingJob with(JobStatus next) {
        return new TrainingJob(id, type, modelId, entity, next, createdAt);
    }

    private IllegalStateException illegal(String transition) {
        return new IllegalStateException("cannot " + transition + " job " + id + " in state " + status.wireName());
    }
}
