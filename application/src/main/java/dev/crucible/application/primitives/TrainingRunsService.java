package dev.crucible.application.primitives;

import dev.crucible.application.blob.AdapterCache;
import dev.crucible.application.model.AdapterFiles;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/** Reads runs and saved states from the {@link PrimitiveStore}, sizes from the adapter files; see the use case. */
public final class TrainingRunsService implements TrainingRunsUseCase {

    private final PrimitiveStore store;
    private final AdapterFiles adapters;
    private final int maxLimit;

    /** @param maxLimit the most runs one page may ask for */
    public TrainingRunsService(PrimitiveStore store, AdapterFiles adapters, int maxLimit) {
        this.store = Objects.requireNonNull(store, "store");
        this.adapters = Objects.requireNonNull(adapters, "adapters");
        if (maxLimit < 1) {
            throw new IllegalArgumentException("maxLimit must be >= 1, got " + maxLimit);
        }
        this.maxLimit = maxLimit;
    }

    @Override
    public Outcome<TrainingRun> weightsInfo(Caller caller, String tinkerPath) {
        Optional<TinkerPath> path = TinkerPath.parse(tinkerPath);
        if (path.isEmpty()) {
            return Outcome.refused(Refusal.invalid("tinker_path", "tinker_path must be tinker://<run id>/weights/<name>"
                    + " or tinker://<run id>/sampler_weights/<name>, got '" + RequestIds.excerpt(tinkerPath) + "'"));
        }
        TinkerPath p = path.get();
        Optional<TrainingRun> run = store.findRun(caller.entity(), p.run());
        if (run.isEmpty() || store.findState(caller.entity(), p.run(), p.kind(), p.name()).isEmpty()) {
            return Outcome.refused(Refusal.notFound("tinker_path", "no saved state at '" + p + "'"));
        }
        return Outcome.done(run.get());
    }

    @Override
    public Outcome<RunsPage> list(Caller caller, int limit, int offset) {
        if (limit < 1 || limit > maxLimit) {
            return Outcome.refused(Refusal.invalid("limit", "limit must be in [1, " + maxLimit
                    + "] (setting crucible.primitives.max-runs-page), got " + limit));
        }
        if (offset < 0) {
            return Outcome.refused(Refusal.invalid("offset", "offset must be >= 0, got " + offset));
        }
        List<RunSummary> runs = store.listRuns(caller.entity(), limit, offset).stream().map(this::summary).toList();
        return Outcome.done(new RunsPage(runs, offset, limit, store.countRuns(caller.entity())));
    }

    @Override
    public Outcome<RunSummary> get(Caller caller, String runId) {
        return run(caller, runId).map(this::summary);
    }

    @Override
    public Outcome<List<RunCheckpoint>> checkpoints(Caller caller, String runId) {
        return run(caller, runId).map(run -> store.listStates(run.model()).stream().map(this::checkpoint).toList());
    }

    @Override
    public Outcome<ArchiveLocation> archive(Caller caller, String runId, String kind, String name) {
        return state(store, caller, runId, kind, name).map(s -> new ArchiveLocation(s.run(), s.step()));
    }

    /** The caller's run {@code runId}; not found for a malformed, unknown or another entity's id. */
    static Outcome<TrainingRun> run(PrimitiveStore store, Caller caller, String runId) {
        return RequestIds.parse(runId).map(ModelId::new).flatMap(id -> store.findRun(caller.entity(), id))
                .<Outcome<TrainingRun>>map(Outcome::done)
                .orElseGet(() -> Outcome.refused(Refusal.notFound("training_run_id", "no training run '"
                        + RequestIds.excerpt(runId) + "'")));
    }

    /** The caller's saved state {@code kind}/{@code name} of run {@code runId}. */
    static Outcome<SavedState> state(PrimitiveStore store, Caller caller, String runId, String kind, String name) {
        if (!TinkerPath.WEIGHTS.equals(kind) && !TinkerPath.SAMPLER_WEIGHTS.equals(kind)) {
            return Outcome.refused(Refusal.invalid("checkpoint_id", "checkpoint_id must be weights/<name> or "
                    + "sampler_weights/<name>, got '" + RequestIds.excerpt(kind + "/" + name) + "'"));
        }
        return run(store, caller, runId).then(run -> store.listStates(run.model()).stream()
                .filter(s -> s.kind().equals(kind) && s.name().equals(name)).findFirst()
                .<Outcome<SavedState>>map(Outcome::done)
                .orElseGet(() -> Outcome.refused(Refusal.notFound("checkpoint_id", "training run " + runId
                        + " has no checkpoint '" + RequestIds.excerpt(kind + "/" + name) + "'"))));
    }

    private Outcome<TrainingRun> run(Caller caller, String runId) {
        return run(store, caller, runId);
    }

    private RunSummary summary(TrainingRun run) {
        List<SavedState> states = store.listStates(run.model());
        return new RunSummary(run, store.lastRequestAt(run.model()).orElse(run.createdAt()),
                newest(states, TinkerPath.WEIGHTS), newest(states, TinkerPath.SAMPLER_WEIGHTS));
    }

    private Optional<RunCheckpoint> newest(List<SavedState> states, String kind) {
        return states.stream().filter(s -> s.kind().equals(kind)).reduce((a, b) -> b).map(this::checkpoint);
    }

    private RunCheckpoint checkpoint(SavedState state) {
        return new RunCheckpoint(state, adapters.stepFolder(state.run(), state.step()).map(AdapterCache::treeSize)
                .map(OptionalLong::of).orElse(OptionalLong.empty()));
    }
}
