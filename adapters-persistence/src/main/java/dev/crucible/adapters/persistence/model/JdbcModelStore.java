package dev.crucible.adapters.persistence.model;

import dev.crucible.adapters.persistence.job.JobWrites;
import dev.crucible.adapters.persistence.sql.Sql;
import dev.crucible.application.model.ModelStore;
import dev.crucible.domain.job.JobEvent;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.model.Checkpoint;
import dev.crucible.domain.model.Model;
import dev.crucible.domain.model.ModelCoordinates;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.paging.PageRequest;
import dev.crucible.domain.paging.SortOrder;
import dev.crucible.domain.tenancy.EntityName;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Optional;

/** Models in {@code models}; every read is scoped by entity. */
@Singleton
@Transactional
class JdbcModelStore implements ModelStore {

    private final Sql sql;
    private final JobWrites jobWrites;

    JdbcModelStore(Sql sql, JobWrites jobWrites) {
        this.sql = sql;
        this.jobWrites = jobWrites;
    }

    @Override
    public Optional<Model> insertUnlessExists(Model model, Checkpoint initial) {
        var c = model.coordinates();
        int inserted = sql.update("INSERT INTO models (id, entity, project, name, base_model, created_at) "
                + "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT ON CONSTRAINT models_coordinates_unique DO NOTHING",
                model.id().value(), c.entity().value(), c.project(), c.name(), model.baseModel(), model.createdAt());
        if (inserted == 0) {
            return find(c);
        }
        sql.update("INSERT INTO checkpoints (id, model_id, step, metrics, created_at) VALUES (?, ?, 0, '{}'::jsonb, ?)",
                initial.id().value(), model.id().value(), initial.createdAt());
        return Optional.empty();
    }

    @Override
    public Optional<Model> find(EntityName entity, ModelId id) {
        return sql.queryOne(ModelRow.SELECT + "WHERE m.entity = ? AND m.id = ?", ModelRow::read, entity.value(), id.value())
                .map(ModelRow::toDomain);
    }

    @Override
    public Optional<Model> find(ModelCoordinates c) {
        return sql.queryOne(ModelRow.SELECT + "WHERE m.entity = ? AND m.project = ? AND m.name = ?",
                ModelRow::read, c.entity().value(), c.project(), c.name()).map(ModelRow::toDomain);
    }

    @Override
    public List<Model> list(EntityName entity) {
        return sql.query(ModelRow.SELECT + "WHERE m.entity = ? ORDER BY m.created_at, m.id", ModelRow::read, entity.value())
                .stream().map(ModelRow::toDomain).toList();
    }

    @Override
    public List<Model> fetchPage(EntityName entity, PageRequest page, Optional<Model> after) {
        boolean asc = page.order() == SortOrder.ASC;
        String direction = asc ? "ASC" : "DESC";
        // The cursor row was read back from the table, so its created_at has the column's precision.
        String keyset = after.isEmpty() ? "" : asc ? "AND (m.created_at, m.id) > (?, ?) " : "AND (m.created_at, m.id) < (?, ?) ";
        Object[] params = after.isEmpty() ? new Object[] {entity.value(), page.fetchSize()}
                : new Object[] {entity.value(), after.get().createdAt(), after.get().id().value(), page.fetchSize()};
        return sql.query(ModelRow.SELECT + "WHERE m.entity = ? " + keyset + "ORDER BY m.created_at " + direction
                + ", m.id " + direction + " LIMIT ?", ModelRow::read, params).stream().map(ModelRow::toDomain).toList();
    }

    @Override
    public int delete(Model model, List<TrainingJob> cancelledJobs, List<JobEvent> events) {
        // Lock the model row first so that a job completing concurrently cannot add a checkpoint we miss.
        sql.query("SELECT id FROM models WHERE id = ? FOR UPDATE", rs -> rs.getObject(1), model.id().value());
        for (int i = 0; i < cancelledJobs.size(); i++) {
            TrainingJob job = cancelledJobs.get(i);
            boolean changed = jobWrites.transition(job, "QUEUED", null) || jobWrites.transition(job, "RUNNING", null);
            if (changed) {
                jobWrites.append(events.get(i));
            }
        }
        int checkpoints = sql.queryOne("SELECT count(*) FROM checkpoints WHERE model_id = ?", rs -> rs.getInt(1),
                model.id().value()).orElse(0);
        sql.update("DELETE FROM models WHERE id = ?", model.id().value());
        return checkpoints;
    }
}
