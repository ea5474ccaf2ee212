package dev.crucible.application.dataset;

import dev.crucible.domain.dataset.DatasetId;
import dev.crucible.domain.tenancy.EntityName;
import java.util.Optional;

/** Finds an entity's dataset with its rows, for jobs that train on it. Thread-safe. */
@FunctionalInterface
public interface DatasetLookup {

    /** A server without datasets: none is found. */
    DatasetLookup NONE = (entity, id) -> Optional.empty();

    /** The entity's dataset {@code id} and its rows; empty when it has none. */
    Optional<DatasetContent> content(EntityName entity, DatasetId id);

    /** The lookup over {@code store}. */
    static DatasetLookup of(DatasetStore store) {
        return (entity, id) -> store.find(entity, id).map(dataset -> new DatasetContent(dataset, store));
    }
}
