package dev.crucible.adapters.persistence.dataset;

import dev.crucible.adapters.persistence.sql.JdbcStore;
import dev.crucible.adapters.persistence.sql.Json;
import dev.crucible.adapters.persistence.sql.Sql;
import dev.crucible.adapters.persistence.sql.SqlText;
import dev.crucible.application.dataset.DatasetStore;
import dev.crucible.domain.dataset.CheckpointRef;
import dev.crucible.domain.dataset.Dataset;
import dev.crucible.domain.dataset.DatasetId;
import dev.crucible.domain.paging.PageRequest;
import dev.crucible.domain.paging.SortOrder;
import dev.crucible.domain.tenancy.EntityName;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Optional;

/**
 * Datasets in {@code datasets}, their lines in {@code dataset_rows} (written {@value #CHUNK} to a statement) and
 * their sources in {@code dataset_sources}; every read by a caller is scoped by entity, pages follow {@code seq}.
 */
@Singleton
@Transactional
class JdbcDatasetStore extends JdbcStore implements DatasetStore {

    static final int CHUNK = 1000;

    JdbcDatasetStore(Sql sql, Json json) {
        super(sql, json);
    }

    @Override
    public void insert(Dataset dataset, List<String> lines) {
        if (lines.size() != dataset.rows()) {
            throw new IllegalArgumentException("dataset " + dataset.id() + " has " + dataset.rows() + " rows, got "
                    + lines.size() + " lines");
        }
        sql.update("INSERT INTO datasets (id, entity, name, project, kind, query, created_at, row_count) "
                + "VALUES (?, ?, ?, ?, ?, CAST(? AS jsonb), ?, ?)", dataset.id().value(), dataset.entity().value(),
                dataset.name(), dataset.project(), dataset.kind().wireName(), json.write(dataset.query()),
                dataset.created(), dataset.rows());
        for (int from = 0; from < lines.size(); from += CHUNK) {
            List<String> chunk = lines.subList(from, Math.min(lines.size(), from + CHUNK));
            sql.update("INSERT INTO dataset_rows (dataset_id, line_no, line) SELECT ?, ? + t.ord - 1, t.line "
                    + "FROM unnest(?::text[]) WITH ORDINALITY AS t(line, ord)", dataset.id().value(), from,
                    chunk.toArray(String[]::new));
        }
        sources(dataset, "completion", dataset.completions());
        sources(dataset, "feedback", dataset.feedback());
    }

    private void sources(Dataset dataset, String kind, List<String> ids) {
        for (int from = 0; from < ids.size(); from += CHUNK) {
            List<String> chunk = ids.subList(from, Math.min(ids.size(), from + CHUNK));
            sql.update("INSERT INTO dataset_sources (dataset_id, entity, kind, source_id, ord) "
                    + "SELECT ?, ?, ?, t.id, ? + t.ord - 1 FROM unnest(?::text[]) WITH ORDINALITY AS t(id, ord) "
                    + "ON CONFLICT DO NOTHING", dataset.id().value(), dataset.entity().value(), kind, from,
                    chunk.toArray(String[]::new));
        }
    }

    @Override
    public Optional<Dataset> find(EntityName entity, DatasetId id) {
        return row(DatasetRow.SELECT + "WHERE d.entity = ? AND d.id = ?", DatasetRow::read, entity.value(),
                id.value());
    }

    @Override
    public List<Dataset> fetchPage(EntityName entity, PageRequest page, Optional<Dataset> after) {
        boolean asc = page.order() == SortOrder.ASC;
        SqlText text = new SqlText(DatasetRow.SELECT + "WHERE d.entity = ?", entity.value());
        after.ifPresent(cursor -> text.add((asc ? " AND d.seq > " : " AND d.seq < ")
                + "(SELECT seq FROM datasets WHERE id = ?)", cursor.id().value()));
        text.add(" ORDER BY d.seq " + (asc ? "ASC" : "DESC") + " LIMIT ?", page.fetchSize());
        return rows(text.text(), DatasetRow::read, text.params());
    }

    @Override
    public List<String> lines(DatasetId id, int from, int limit) {
        return sql.query("SELECT line FROM dataset_rows WHERE dataset_id = ? AND line_no >= ? ORDER BY line_no "
                + "LIMIT ?", rs -> rs.getString("line"), id.value(), from, limit);
    }

    @Override
    public List<CheckpointRef> deleteUnlessLearned(EntityName entity, DatasetId id) {
        // Holding the dataset's row orders this after a job completion that is writing its lineage.
        if (sql.queryOne("SELECT 1 FROM datasets WHERE entity = ? AND id = ? FOR UPDATE", rs -> 1, entity.value(),
                id.value()).isEmpty()) {
            return List.of();
        }
        List<CheckpointRef> learned = Lineage.checkpoints(sql, "cd.dataset_id = ?", id.value());
        if (learned.isEmpty()) {
            sql.update("DELETE FROM datasets WHERE entity = ? AND id = ?", entity.value(), id.value());
        }
        return learned;
    }
}
