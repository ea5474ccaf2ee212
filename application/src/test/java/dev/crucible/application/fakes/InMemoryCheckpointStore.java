package dev.crucible.application.fakes;

import dev.crucible.application.model.CheckpointStore;
import dev.crucible.domain.paging.PageRequest;
import dev.crucible.domain.paging.SortOrder;
import dev.crucible.domain.model.Checkpoint;
import dev.crucible.domain.model.CheckpointId;
import dev.crucible.domain.model.CheckpointSteps;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.EntityName;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntConsumer;
import java.util.stream.Collectors;

/** Checkpoints in a list; records each {@link #delete} call. */
public final class InMemoryCheckpointStore implements CheckpointStore {

    private final List<Checkpoint> checkpoints = new ArrayList<>();
    private final List<List<Integer>> deleteCalls = new ArrayList<>();
    private final java.util.Map<ModelId, EntityName> owners = new java.util.HashMap<>();

    public synchronized Checkpoint add(Checkpoint checkpoint) {
        checkpoints.add(checkpoint);
        return checkpoint;
    }

    public synchronized List<Checkpoint> of(ModelId model) {
        return checkpoints.stream().filter(c -> c.modelId().equals(model)).sorted(Comparator.comparingInt(Checkpoint::step))
                .toList();
    }

    /** Removes every checkpoint of {@code model}, returning how many there were. */
    synchronized int removeModel(ModelId model) {
        int before = checkpoints.size();
        checkpoints.removeIf(c -> c.modelId().equals(model));
        return before - checkpoints.size();
    }

    public synchronized List<List<Integer>> deleteCalls() {
        return List.copyOf(deleteCalls);
    }

    @Override
    public synchronized Optional<Checkpoint> find(ModelId model, CheckpointId id) {
        return checkpoints.stream().filter(c -> c.modelId().equals(model) && c.id().equals(id)).findFirst();
    }

    @Override
    public synchronized List<Checkpoint> fetchPage(ModelId model, PageRequest request, Optional<Integer> afterStep) {
        boolean asc = request.order() == SortOrder.ASC;
        Comparator<Checkpoint> byStep = Comparator.comparingInt(Checkpoint::step);
        return checkpoints.stream()
                .filter(c -> c.modelId().equals(model))
                .filter(c -> afterStep.isEmpty() || (asc ? c.step() > afterStep.get() : c.step() < afterStep.get()))
                .sorted(asc ? byStep : byStep.reversed())
                .limit(request.fetchSize())
                .toList();
    }

    @Override
    public synchronized Set<Integer> steps(ModelId model) {
        return checkpoints.stream().filter(c -> c.modelId().equals(model)).map(Checkpoint::step).collect(Collectors.toSet());
    }

    @Override
    public synchronized Checkpoint insertNext(ModelId model, Instant now, IntConsumer writeFiles) {
        int step = CheckpointSteps.of(steps(model)).next();
        writeFiles.accept(step);
        return add(new Checkpoint(CheckpointId.random(), model, step, Map.of(), now));
    }

    /** Counts only the checkpoints of models it has seen added within an entity's bound. */
    @Override
    public synchronized Optional<Checkpoint> insertNextWithin(ModelId model, EntityName entity, int maxPerEntity,
            Instant now, IntConsumer writeFiles) {
        owners.put(model, entity);
        long stored = checkpoints.stream().filter(c -> c.step() > 0 && entity.equals(owners.get(c.modelId()))).count();
        if (stored >= maxPerEntity) {
            return Optional.empty();
        }
        return Optional.of(insertNext(model, now, writeFiles));
    }

    @Override
    public synchronized void delete(ModelId model, List<Integer> steps) {
        deleteCalls.add(List.copyOf(steps));
        checkpoints.removeIf(c -> c.modelId().equals(model) && steps.contains(c.step()));
    }
}
