package dev.crucible.application.fakes;

import dev.crucible.application.model.ModelStore;
import dev.crucible.domain.job.JobEvent;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.model.Checkpoint;
import dev.crucible.domain.model.Model;
import dev.crucible.domain.model.ModelCoordinates;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.paging.PageRequest;
import dev.crucible.domain.tenancy.EntityName;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Models in insertion order; deleting one drops its checkpoints and records the jobs and events it ended. */
public final class InMemoryModelStore implements ModelStore {

    private final Map<ModelId, Model> models = new LinkedHashMap<>();
    private final InMemoryCheckpointStore checkpoints;
    private final List<TrainingJob> cancelledJobs = new ArrayList<>();
    private final List<JobEvent> cancelEvents = new ArrayList<>();

    public InMemoryModelStore(InMemoryCheckpointStore checkpoints) {
        this.checkpoints = checkpoints;
    }

    /** Stores {@code model} as it is (no step-0 checkpoint is added). */
    public synchronized Model add(Model model) {
        models.put(model.id(), model);
        return model;
    }

    public synchronized boolean contains(ModelId id) {
        return models.containsKey(id);
    }

    public synchronized List<TrainingJob> cancelledJobs() {
        return List.copyOf(cancelledJobs);
    }

    public synchronized List<JobEvent> cancelEvents() {
        return List.copyOf(cancelEvents);
    }

    @Override
    public synchronized Optional<Model> insertUnlessExists(Model model, Checkpoint initial) {
        Optional<Model> existing = find(model.coordinates());
        if (existing.isEmpty()) {
            models.put(model.id(), model);
            checkpoints.add(initial);
        }
        return existing;
    }

    @Override
    public synchronized Optional<Model> find(EntityName entity, ModelId id) {
        return Optional.ofNullable(models.get(id)).filter(m -> m.coordinates().entity().equals(entity));
    }

    @Override
    public synchronized Optional<Model> find(ModelCoordinates coordinates) {
        return models.values().stream().filter(m -> m.coordinates().equals(coordinates)).findFirst();
    }

    @Override
    public synchronized List<Model> list(EntityName entity) {
        return models.values().stream().filter(m -> m.coordinates().entity().equals(entity)).toList();
    }

    @Override
    public synchronized List<Model> fetchPage(EntityName entity, PageRequest page, Optional<Model> after) {
        return InMemoryPages.fetch(list(entity), page, after, Model::id);
    }

    @Override
    public synchronized int delete(Model model, List<TrainingJob> cancelled, List<JobEvent> events) {
        models.remove(model.id());
        cancelledJobs.addAll(cancelled);
        cancelEvents.addAll(events);
        return checkpoints.removeModel(model.id());
    }
}
