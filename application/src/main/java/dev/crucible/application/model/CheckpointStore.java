package dev.crucible.application.model;

import dev.crucible.domain.paging.PageRequest;
import dev.crucible.domain.model.Checkpoint;
import dev.crucible.domain.model.CheckpointId;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.EntityName;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntConsumer;

/**
 * Where checkpoints live. Callers have already checked that the model belongs to the caller's entity.
 *
 * <p>Thread-safe; each method is one transaction.
 */
public interface CheckpointStore {

    /** The checkpoint {@code id} of {@code model}; empty when it is not one of the model's. */
    Optional<Checkpoint> find(ModelId model, CheckpointId id);

    /**
     * Up to {@code request.fetchSize()} checkpoints of {@code model} ordered by step in {@code request.order()},
     * starting after step {@code afterStep} (exclusive) when given.
     */
    List<Checkpoint> fetchPage(ModelId model, PageRequest request, Optional<Integer> afterStep);

    /** All step numbers of {@code model}. */
    Set<Integer> steps(ModelId model);

    /**
     * Adds the next checkpoint of {@code model} ({@link dev.crucible.domain.model.CheckpointSteps#next()}, the rule
     * training takes its step from too), with no metrics: {@code writeFiles} is
     * given the new step and stores its adapter files before the row is written, in one transaction that holds the
     * model, so two additions never take one step and a failed write leaves no checkpoint.
     */
    Checkpoint insertNext(ModelId model, Instant now, IntConsumer writeFiles);

    /**
     * As {@link #insertNext}, when {@code entity} (the model's) stores fewer than {@code maxPerEntity} adapters
     * (checkpoints past step 0, which is the base model itself) over all its models. The count, the files and the row are one transaction under a lock on the entity, so two
     * additions of one entity cannot both take its last place.
     *
     * @return the new checkpoint; empty when the entity has no room (then nothing was written)
     */
    Optional<Checkpoint> insertNextWithin(ModelId model, EntityName entity, int maxPerEntity, Instant now,
            IntConsumer writeFiles);

    /** Deletes the checkpoints of {@code model} with the given steps (and their adapter files). */
    void delete(ModelId model, List<Integer> steps);
}
