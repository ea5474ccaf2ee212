package dev.crucible.application.model;

import dev.crucible.application.paging.OwnedRows;
import dev.crucible.domain.job.JobEvent;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.model.Checkpoint;
import dev.crucible.domain.model.Model;
import dev.crucible.domain.model.ModelCoordinates;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.paging.PageRequest;
import dev.crucible.domain.tenancy.EntityName;
import java.util.List;
import java.util.Optional;

/**
 * Where models live. Every read is scoped by entity so that one tenant never sees another's models.
 *
 * <p>Thread-safe; each method is one transaction. Infrastructure failures surface as unchecked exceptions.
 */
public interface ModelStore extends OwnedRows<Model, ModelId> {

    /**
     * Inserts {@code model} with its step-0 {@code initial} checkpoint, unless a model with the same coordinates
     * exists (also when one is created concurrently).
     *
     * @return empty when inserted; the existing model otherwise (nothing is written then)
     */
    Optional<Model> insertUnlessExists(Model model, Checkpoint initial);

    /** The entity's model {@code id}; empty when it does not exist or belongs to another entity. */
    Optional<Model> find(EntityName entity, ModelId id);

    /** The model at {@code coordinates} (which name its entity); empty when there is none. */
    Optional<Model> find(ModelCoordinates coordinates);

    /** The entity's models, oldest first. */
    List<Model> list(EntityName entity);

    /**
     * Up to {@code page.fetchSize()} of the entity's models in creation order ({@code page.order()}), starting after
     * {@code after} (one of them, as read from this store) when given.
     */
    List<Model> fetchPage(EntityName entity, PageRequest page, Optional<Model> after);

    /**
     * Deletes {@code model} with its checkpoints and trajectory logs, and in the same transaction stores
     * {@code cancelledJobs} (its jobs that were active) with their terminal {@code events}.
     *
     * @return the number of checkpoints deleted
     */
    int delete(Model model, List<TrainingJob> cancelledJobs, List<JobEvent> events);
}
