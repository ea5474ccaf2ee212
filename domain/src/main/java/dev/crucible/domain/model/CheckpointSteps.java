package dev.crucible.domain.model;

import java.util.Collection;
import java.util.Collections;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The steps a model's checkpoints hold, and the one rule for the step that comes next: one past the latest (0 for a
 * model with none). Training and adapter import both take their step from here, so that the step a trainer writes its
 * adapter under is the step its checkpoint gets; the database's unique {@code (model_id, step)} refuses a step that
 * someone else took meanwhile instead of quietly recomputing it.
 *
 * @param taken the existing steps, ascending
 */
public record CheckpointSteps(SortedSet<Integer> taken) {

    public CheckpointSteps {
        Objects.requireNonNull(taken, "taken");
        for (Integer step : taken) {
            if (step == null || step < 0) {
                throw new IllegalArgumentException("steps must be >= 0, got " + step);
            }
        }
        taken = Collections.unmodifiableSortedSet(new TreeSet<>(taken));
    }

    /** The steps of {@code steps}, in any order. */
    public static CheckpointSteps of(Collection<Integer> steps) {
        return new CheckpointSteps(new TreeSet<>(Objects.requireNonNull(steps, "steps")));
    }

    /** The newest step; empty for a model with no checkpoint. */
    public Optional<Integer> latest() {
        return taken.isEmpty() ? Optional.empty() : Optional.of(taken.last());
    }

    /** The step the next checkpoint gets: one past the latest, or 0 when there is none. */
    public int next() {
        return latest().map(step -> step + 1).orElse(0);
    }

    /** Whether the model has a checkpoint at {@code step}. */
    public boolean contains(int step) {
        return taken.contains(step);
    }
}
