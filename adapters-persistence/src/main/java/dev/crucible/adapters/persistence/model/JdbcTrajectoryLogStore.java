package dev.crucible.adapters.persistence.model;

import dev.crucible.adapters.persistence.sql.JdbcStore;
import dev.crucible.adapters.persistence.sql.Json;
import dev.crucible.adapters.persistence.sql.Sql;
import dev.crucible.adapters.persistence.trajectory.TrajectoryJson;
import dev.crucible.application.model.TrajectoryLogStore;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.trajectory.TrajectoryGroup;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Logged trajectories in {@code trajectory_logs}; aggregates merged into the latest checkpoint's metrics. */
@Singleton
@Transactional
class JdbcTrajectoryLogStore extends JdbcStore implements TrajectoryLogStore {

    JdbcTrajectoryLogStore(Sql sql, Json json) {
        super(sql, json);
    }

    @Override
    public void log(ModelId model, String split, List<TrajectoryGroup> groups, Map<String, Double> metrics) {
        sql.update("INSERT INTO trajectory_logs (id, model_id, split, trajectory_groups, created_at) "
                + "VALUES (?, ?, ?, CAST(? AS jsonb), ?)", UUID.randomUUID(), model.value(), split,
                json.write(TrajectoryJson.write(groups)), Instant.now());
        if (!metrics.isEmpty()) {
            // jsonb || merges keys, newer values winning; the latest checkpoint is the one with the highest step.
            sql.update("UPDATE checkpoints SET metrics = metrics || CAST(? AS jsonb) WHERE model_id = ? "
                    + "AND step = (SELECT max(step) FROM checkpoints WHERE model_id = ?)",
                    json.write(metrics), model.value(), model.value());
        }
    }
}
