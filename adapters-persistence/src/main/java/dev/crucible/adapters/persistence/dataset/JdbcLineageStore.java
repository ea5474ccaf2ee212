package dev.crucible.adapters.persistence.dataset;

import dev.crucible.adapters.persistence.sql.JdbcStore;
import dev.crucible.adapters.persistence.sql.Json;
import dev.crucible.adapters.persistence.sql.Sql;
import dev.crucible.application.dataset.LineageStore;
import dev.crucible.domain.dataset.CheckpointRef;
import dev.crucible.domain.dataset.Dataset;
import dev.crucible.domain.feedback.FeedbackId;
import dev.crucible.domain.feedback.ProjectId;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.EntityName;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Lineage through {@code checkpoint_datasets} and {@code dataset_sources}; an erasure reads the checkpoints and
 * deletes (or not) in one transaction, the completion's row held first.
 */
@Singleton
@Transactional
class JdbcLineageStore extends JdbcStore implements LineageStore {

    JdbcLineageStore(Sql sql, Json json) {
        super(sql, json);
    }

    @Override
    public List<Dataset> datasetsOf(EntityName entity, ModelId model, int step) {
        return rows(DatasetRow.SELECT + "JOIN checkpoint_datasets cd ON cd.dataset_id = d.id "
                + "JOIN checkpoints c ON c.id = cd.checkpoint_id WHERE d.entity = ? AND c.model_id = ? AND c.step = ? "
                + "ORDER BY d.seq", DatasetRow::read, entity.value(), model.value(), step);
    }

    @Override
    public Optional<Erasure> eraseCompletion(EntityName entity, String id, boolean refuse) {
        if (sql.queryOne("SELECT 1 FROM stored_completions WHERE entity = ? AND id = ? FOR UPDATE", rs -> 1,
                entity.value(), id).isEmpty()) {
            return Optional.empty();
        }
        List<CheckpointRef> learned = Lineage.checkpoints(sql, "cd.dataset_id IN (SELECT s.dataset_id FROM "
                + "dataset_sources s WHERE s.entity = ? AND s.kind = 'completion' AND s.source_id = ?)",
                entity.value(), id);
        if (refuse && !learned.isEmpty()) {
            return Optional.of(new Erasure(0, learned));
        }
        return Optional.of(new Erasure(sql.update("DELETE FROM stored_completions WHERE entity = ? AND id = ?",
                entity.value(), id), learned));
    }

    @Override
    public Erasure eraseFeedback(ProjectId project, List<FeedbackId> ids, boolean refuse) {
        List<CheckpointRef> learned = Lineage.checkpoints(sql, "cd.dataset_id IN (SELECT s.dataset_id FROM "
                + "dataset_sources s JOIN datasets d ON d.id = s.dataset_id WHERE s.entity = ? AND d.project = ? "
                + "AND s.kind = 'feedback' AND s.source_id = ANY(?::text[]))", project.entity(), project.project(),
                ids.stream().map(FeedbackId::toString).toArray(String[]::new));
        if (refuse && !learned.isEmpty()) {
            return new Erasure(0, learned);
        }
        return new Erasure(sql.update("DELETE FROM feedback WHERE project_id = ? AND id = ANY (?)", project.toString(),
                ids.stream().map(FeedbackId::value).toArray(UUID[]::new)), learned);
    }
}
