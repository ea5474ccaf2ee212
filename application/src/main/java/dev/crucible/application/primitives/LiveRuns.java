package dev.crucible.application.primitives;

import dev.crucible.application.inference.serving.ServedModel;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The training runs this process holds in memory, bounded per entity and in total (each holds an adapter, its
 * optimiser state and gradients, and a thread). A run past either bound is refused as an overload (429); unloading a
 * run frees its place. Thread-safe.
 */
public final class LiveRuns implements AutoCloseable {

    private final int maxPerEntity;
    private final int maxTotal;
    private final Map<ModelId, LiveRun> runs = new HashMap<>();

    public LiveRuns(int maxPerEntity, int maxTotal) {
        if (maxPerEntity < 1 || maxTotal < 1) {
            throw new IllegalArgumentException("the live-run bounds must be >= 1, got " + maxPerEntity + " and "
                    + maxTotal);
        }
        this.maxPerEntity = maxPerEntity;
        this.maxTotal = maxTotal;
    }

    /** Holds {@code run} live on {@code base} unless its entity, or the server, holds its most already. */
    synchronized Outcome<LiveRun> open(TrainingRun run, ServedModel base) {
        EntityName entity = run.entity();
        long own = runs.values().stream().filter(r -> r.run().entity().equals(entity)).count();
        if (own >= maxPerEntity) {
            return Outcome.refused(Refusal.overloaded("entity " + entity + " holds " + own + " live training runs, "
                    + "the most it may (setting crucible.primitives.max-runs-per-entity); unload_model one first",
                    Duration.ofSeconds(5)));
        }
        if (runs.size() >= maxTotal) {
            return Outcome.refused(Refusal.overloaded("the server holds " + runs.size() + " live training runs, the "
                    + "most it may (setting crucible.primitives.max-runs)", Duration.ofSeconds(5)));
        }
        LiveRun live = new LiveRun(run, base);
        runs.put(run.model(), live);
        return Outcome.done(live);
    }

    synchronized Optional<LiveRun> find(ModelId run) {
        return Optional.ofNullable(runs.get(run));
    }

    /** Removes the run and frees it once its queued operations have run. */
    void unload(ModelId run) {
        LiveRun removed;
        synchronized (this) {
            removed = runs.remove(run);
        }
        if (removed != null) {
            removed.close();
        }
    }

    @Override
    public void close() {
        List<LiveRun> all;
        synchronized (this) {
            all = new ArrayList<>(runs.values());
            runs.clear();
        }
        all.forEach(LiveRun::close);
    }
}
