package dev.crucible.application.dataset;

import dev.crucible.domain.dataset.CheckpointRef;
import dev.crucible.domain.dataset.Dataset;
import dev.crucible.domain.dataset.DatasetId;
import dev.crucible.domain.paging.PageRequest;
import dev.crucible.domain.tenancy.EntityName;
import java.util.List;
import java.util.Optional;

/**
 * Where datasets and their rows live. Every read is scoped to one entity: another entity's dataset is absent.
 * Thread-safe; each call is its own transaction; storage failures are runtime exceptions.
 */
public interface DatasetStore {

    /** Stores {@code dataset} with its {@code lines} (as many as its row count) and its sources, in one transaction. */
    void insert(Dataset dataset, List<String> lines);

    /** The entity's dataset {@code id}, if it has one. */
    Optional<Dataset> find(EntityName entity, DatasetId id);

    /**
     * Up to {@code page.fetchSize()} of the entity's datasets in creation order ({@code page.order()}), after
     * {@code after} (one of them) when given.
     */
    List<Dataset> fetchPage(EntityName entity, PageRequest page, Optional<Dataset> after);

    /** Up to {@code limit} lines of dataset {@code id} from line {@code from} (0-based), in order. */
    List<String> lines(DatasetId id, int from, int limit);

    /**
     * Deletes the entity's dataset {@code id} unless a checkpoint learned from it.
     *
     * @return empty when deleted (or absent); otherwise the checkpoints that learned from it, and nothing changed
     */
    List<CheckpointRef> deleteUnlessLearned(EntityName entity, DatasetId id);
}
