package dev.crucible.adapters.persistence.model;

import dev.crucible.adapters.persistence.sql.JdbcStore;
import dev.crucible.adapters.persistence.sql.Json;
import dev.crucible.adapters.persistence.sql.Sql;
import dev.crucible.application.model.CheckpointStore;
import dev.crucible.domain.paging.PageRequest;
import dev.crucible.domain.paging.SortOrder;
import dev.crucible.domain.model.Checkpoint;
import dev.crucible.domain.model.CheckpointId;
import dev.crucible.domain.model.CheckpointSteps;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.EntityName;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntConsumer;

/** Checkpoints in {@code checkpoints}, listed by step with keyset pagination. */
@Singleton
@Transactional
class JdbcCheckpointStore extends JdbcStore implements CheckpointStore {

    JdbcCheckpointStore(Sql sql, Json json) {
        super(sql, json);
    }

    @Override
    public Optional<Checkpoint> find(ModelId model, CheckpointId id) {
        return row("SELECT " + CheckpointRow.COLUMNS + " FROM checkpoints WHERE model_id = ? AND id = ?",
                CheckpointRow::read, model.value(), id.value());
    }

    @Override
    public List<Checkpoint> fetchPage(ModelId model, PageRequest request, Optional<Integer> afterStep) {
        boolean asc = request.order() == SortOrder.ASC;
        String keyset = afterStep.isEmpty() ? "" : asc ? " AND step > ?" : " AND step < ?";
        String sqlText = "SELECT " + CheckpointRow.COLUMNS + " FROM checkpoints WHERE model_id = ?" + keyset
                + " ORDER BY step " + (asc ? "ASC" : "DESC") + " LIMIT ?";
        Object[] params = afterStep.isEmpty() ? new Object[] {model.value(), request.fetchSize()}
                : new Object[] {model.value(), afterStep.get(), request.fetchSize()};
        return rows(sqlText, CheckpointRow::read, params);
    }

    @Override
    public Set<Integer> steps(ModelId model) {
        return new HashSet<>(sql.query("SELECT step FROM checkpoints WHERE model_id = ?", rs -> rs.getInt(1), model.value()));
    }

    @Override
    public Checkpoint insertNext(ModelId model, Instant now, IntConsumer writeFiles) {
        // Holding the model's row until commit serialises additions to one model (a second waits here).
        sql.query("SELECT id FROM models WHERE id = ? FOR UPDATE", rs -> 0, model.value());
        int step = CheckpointSteps.of(steps(model)).next();
        writeFiles.accept(step);
        Checkpoint checkpoint = new Checkpoint(CheckpointId.random(), model, step, Map.of(), now);
        sql.update("INSERT INTO checkpoints (id, model_id, step, metrics, created_at) VALUES (?, ?, ?, '{}'::jsonb, ?)",
                checkpoint.id().value(), model.value(), step, now);
        return checkpoint;
    }

    @Override
    public Optional<Checkpoint> insertNextWithin(ModelId model, EntityName entity, int maxPerEntity, Instant now,
            IntConsumer writeFiles) {
        // One entity's additions queue on this lock for the rest of the transaction: count, then insert.
        sql.lockUntilCommit("checkpoints/" + entity.value());
        long stored = sql.queryOne("SELECT count(*) FROM checkpoints c JOIN models m ON m.id = c.model_id "
                + "WHERE m.entity = ? AND c.step > 0", rs -> rs.getLong(1), entity.value()).orElseThrow();
        if (stored >= maxPerEntity) {
            return Optional.empty();
        }
        return Optional.of(insertNext(model, now, writeFiles));
    }

    @Override
    public void delete(ModelId model, List<Integer> steps) {
        for (int step : steps) {
            sql.update("DELETE FROM checkpoints WHERE model_id = ? AND step = ?", model.value(), step);
        }
    }
}
