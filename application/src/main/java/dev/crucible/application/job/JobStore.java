package dev.crucible.application.job;

import dev.crucible.application.paging.OwnedRows;
import dev.crucible.domain.job.JobId;
import dev.crucible.domain.job.JobSpec;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.paging.PageRequest;
import dev.crucible.domain.tenancy.EntityName;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Where job records and their inputs live. Reads are scoped by entity where a caller asks.
 *
 * <p>Thread-safe; each method is one transaction.
 */
public interface JobStore extends OwnedRows<TrainingJob, JobId> {

    /** Stores a new queued {@code job} with its input, however many its entity has queued. */
    void enqueue(TrainingJob job, JobSpec spec);

    /**
     * Stores a new queued {@code job} with its input when its entity has fewer than {@code maxQueued} jobs queued.
     * The count and the insert are one transaction under a lock on the entity, so two requests of one entity cannot
     * both take its last place.
     *
     * @return empty when stored; otherwise how many jobs the entity has queued (nothing was stored)
     */
    OptionalLong enqueueWithin(TrainingJob job, JobSpec spec, int maxQueued);

    /** The entity's job {@code id}; empty when missing or another entity's. */
    Optional<TrainingJob> find(EntityName entity, JobId id);

    /**
     * How many jobs, of every entity, are in each status ({@code QUEUED}, {@code RUNNING}, {@code COMPLETED},
     * {@code FAILED}, {@code CANCELLED}); a status no job is in is absent. For operators' metrics.
     */
    Map<String, Long> countByStatus();

    /**
     * Up to {@code page.fetchSize()} of the entity's jobs in creation order ({@code page.order()}), starting after
     * {@code after} (one of them) when given.
     */
    List<TrainingJob> fetchPage(EntityName entity, PageRequest page, Optional<TrainingJob> after);

    /** The model's queued and running jobs, oldest first. */
    List<TrainingJob> active(ModelId model);

    /** The input of job {@code id}; empty when the job is gone. */
    Optional<JobSpec> spec(JobId id);
}
