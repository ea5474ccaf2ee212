package dev.crucible.application.model;

import dev.crucible.domain.common.PageRequest;
import dev.crucible.domain.model.Checkpoint;
import dev.crucible.domain.model.CheckpointId;
import dev.crucible.domain.model.ModelId;
import java.util.List;
import java.util.Optional;
import java.util.Set;

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

    /** Deletes the checkpoints of {@code model} with the given steps (and their adapter files). */
    void delete(ModelId model, List<Integer> steps);
}
