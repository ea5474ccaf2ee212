package dev.crucible.application.model;

import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.trajectory.TrajectoryGroup;
import java.util.List;
import java.util.Map;

/** Keeps logged trajectories and their aggregates. Thread-safe. */
public interface TrajectoryLogStore {

    /**
     * Stores {@code groups} under {@code split} for {@code model} and, in the same transaction, merges
     * {@code metrics} into the metrics of the model's latest checkpoint.
     */
    void log(ModelId model, String split, List<TrajectoryGroup> groups, Map<String, Double> metrics);
}
