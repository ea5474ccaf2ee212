package dev.crucible.adapters.persistence.dataset;

import dev.crucible.adapters.persistence.sql.JdbcStore;
import dev.crucible.adapters.persistence.sql.Json;
import dev.crucible.adapters.persistence.sql.Sql;
import dev.crucible.domain.dataset.Dataset;
import dev.crucible.domain.dataset.DatasetId;
import dev.crucible.domain.dataset.DatasetKind;
import dev.crucible.domain.tenancy.EntityName;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** A {@code datasets} row with its source ids, aggregated in the select. */
record DatasetRow(UUID id, String entity, String name, String project, String kind, String query, Instant createdAt,
        int rowCount, List<String> completions, List<String> feedback)
        implements JdbcStore.JsonRow<Dataset> {

    /** The columns {@link #read} reads, from {@code datasets d}. */
    static final String SELECT = "SELECT d.id, d.entity, d.name, d.project, d.kind, d.query::text AS query, "
            + "d.created_at, d.row_count, "
            + sources("completion") + " AS completions, " + sources("feedback") + " AS feedback FROM datasets d ";

    private static String sources(String kind) {
        return "ARRAY(SELECT s.source_id FROM dataset_sources s WHERE s.dataset_id = d.id AND s.kind = '" + kind
                + "' ORDER BY s.ord)";
    }

    static DatasetRow read(ResultSet rs) throws SQLException {
        return new DatasetRow(Sql.uuid(rs, "id"), rs.getString("entity"), rs.getString("name"),
                rs.getString("project"), rs.getString("kind"), rs.getString("query"), Sql.instant(rs, "created_at"),
                rs.getInt("row_count"), texts(rs, "completions"), texts(rs, "feedback"));
    }

    private static List<String> texts(ResultSet rs, String column) throws SQLException {
        return List.of((String[]) rs.getArray(column).getArray());
    }

    @Override
    public Dataset toDomain(Json json) {
        return new Dataset(new DatasetId(id), new EntityName(entity), name, project,
                DatasetKind.of(kind).orElseThrow(() -> new IllegalStateException("unknown dataset kind " + kind)),
                json.readObject(query), createdAt, rowCount, completions, feedback);
    }
}
