package dev.crucible.application.primitives;

import dev.crucible.domain.model.Checkpoint;
import dev.crucible.domain.model.Model;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.domain.tenancy.EntityName;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.UUID;

/** A {@link PrimitiveStore} of runs and their saved-state names in memory; sessions and samplers are not kept. */
final class InMemorySavedStates implements PrimitiveStore {

    /** The callers of two entities, and the time the tests' runs and states are made at. */
    static final Caller ADA = new Caller(new EntityName("ada"), UUID.randomUUID());
    static final Caller BOB = new Caller(new EntityName("bob"), UUID.randomUUID());
    static final Instant T = Instant.parse("2026-11-27T12:00:00Z");

    final List<TrainingRun> runs = new ArrayList<>();
    final List<SavedState> states = new ArrayList<>();

    /** Keeps a new rank-4 run of {@code entity} on model {@code tiny}, made at {@code at}; returns its id. */
    ModelId addRun(EntityName entity, Instant at) {
        ModelId run = ModelId.random();
        runs.add(new TrainingRun(run, entity, Optional.empty(), "tiny",
                new LoraSettings(4, false, true, true, OptionalLong.empty()), at));
        return run;
    }

    @Override
    public void insertSession(UUID id, EntityName entity, List<String> tags, String sdkVersion, Instant now) {
        throw new UnsupportedOperationException("not kept by this fake");
    }

    @Override
    public boolean heartbeat(EntityName entity, UUID session, Instant now) {
        throw new UnsupportedOperationException("not kept by this fake");
    }

    @Override
    public void insertRun(Model model, Checkpoint initial, TrainingRun run) {
        runs.add(run);
    }

    @Override
    public Optional<TrainingRun> findRun(EntityName entity, ModelId model) {
        return runs.stream().filter(r -> r.entity().equals(entity) && r.model().equals(model)).findFirst();
    }

    @Override
    public List<TrainingRun> listRuns(EntityName entity, int limit, int offset) {
        return runs.stream().filter(r -> r.entity().equals(entity))
                .sorted(Comparator.comparing(TrainingRun::createdAt).reversed()).skip(offset).limit(limit).toList();
    }

    @Override
    public void insertSampler(SamplingSession sampler) {
        throw new UnsupportedOperationException("not kept by this fake");
    }

    @Override
    public Optional<SamplingSession> findSampler(EntityName entity, UUID id) {
        throw new UnsupportedOperationException("not kept by this fake");
    }

    @Override
    public void nameState(ModelId model, String kind, String name, int step, Instant now) {
        deleteState(model, kind, name);
        states.add(new SavedState(model, kind, name, step, now));
    }

    @Override
    public OptionalInt findState(EntityName entity, ModelId model, String kind, String name) {
        return findRun(entity, model).isEmpty() ? OptionalInt.empty() : states.stream()
                .filter(s -> s.run().equals(model) && s.kind().equals(kind) && s.name().equals(name))
                .mapToInt(SavedState::step).findFirst();
    }

    @Override
    public int countRuns(EntityName entity) {
        return (int) runs.stream().filter(r -> r.entity().equals(entity)).count();
    }

    @Override
    public Optional<Instant> lastRequestAt(ModelId model) {
        return Optional.empty();
    }

    @Override
    public List<SavedState> listStates(ModelId model) {
        return states.stream().filter(s -> s.run().equals(model)).sorted(Comparator.comparing(SavedState::createdAt))
                .toList();
    }

    @Override
    public boolean deleteState(ModelId model, String kind, String name) {
        return states.removeIf(s -> s.run().equals(model) && s.kind().equals(kind) && s.name().equals(name));
    }

    @Override
    public boolean stepNamed(ModelId model, int step) {
        return states.stream().anyMatch(s -> s.run().equals(model) && s.step() == step);
    }
}
