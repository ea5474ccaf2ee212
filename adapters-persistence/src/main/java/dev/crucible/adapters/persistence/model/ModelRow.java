package dev.crucible.adapters.persistence.model;

import dev.crucible.adapters.persistence.sql.Sql;
import dev.crucible.domain.model.Model;
import dev.crucible.domain.model.ModelCoordinates;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.EntityName;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.UUID;

/** A row of {@code models} joined with its latest step. */
record ModelRow(UUID id, String entity, String project, String name, String baseModel, Instant createdAt, int latestStep) {

    static final String SELECT = "SELECT m.id, m.entity, m.project, m.name, m.base_model, m.created_at, "
            + "COALESCE((SELECT max(c.step) FROM checkpoints c WHERE c.model_id = m.id), 0) AS latest_step FROM models m ";

    static ModelRow read(ResultSet rs) throws SQLException {
        return new ModelRow(Sql.uuid(rs, "id"), rs.getString("entity"), rs.getString("project"), rs.getString("name"),
                rs.getString("base_model"), Sql.instant(rs, "created_at"), rs.getInt("latest_step"));
    }

    Model toDomain() {
        return new Model(new ModelId(id), new ModelCoordinates(new EntityName(entity), project, name), baseModel,
                createdAt, latestStep);
    }
}
