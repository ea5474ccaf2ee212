package dev.crucible.adapters.persistence.model;

import dev.crucible.adapters.persistence.sql.JdbcStore;
import dev.crucible.adapters.persistence.sql.Json;
import dev.crucible.adapters.persistence.sql.Sql;
import dev.crucible.domain.model.Checkpoint;
import dev.crucible.domain.model.CheckpointId;
import dev.crucible.domain.model.ModelId;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.UUID;

/** A row of {@code checkpoints}; metrics as JSON text. */
record CheckpointRow(UUID id, UUID modelId, int step, String metrics, Instant createdAt) implements JdbcStore.JsonRow<Checkpoint> {

    static final String COLUMNS = "id, model_id, step, metrics::text AS metrics, created_at";

    static CheckpointRow read(ResultSet rs) throws SQLException {
        return new CheckpointRow(Sql.uuid(rs, "id"), Sql.uuid(rs, "model_id"), rs.getInt("step"), rs.getString("metrics"),
                Sql.instant(rs, "created_at"));
    }

    @Override
    public Checkpoint toDomain(Json json) {
        return new Checkpoint(new CheckpointId(id), new ModelId(modelId), step, json.readMetrics(metrics), createdAt);
    }
}
