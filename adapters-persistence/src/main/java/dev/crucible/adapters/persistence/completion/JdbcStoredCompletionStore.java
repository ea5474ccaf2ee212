package dev.crucible.adapters.persistence.completion;

import dev.crucible.adapters.persistence.sql.Json;
import dev.crucible.adapters.persistence.sql.Sql;
import dev.crucible.application.completion.StoredCompletionStore;
import dev.crucible.domain.completion.CompletionMetadata;
import dev.crucible.domain.completion.StoredCompletion;
import dev.crucible.domain.completion.StoredCompletionQuery;
import dev.crucible.domain.paging.SortOrder;
import dev.crucible.domain.tenancy.EntityName;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Stored completions in {@code stored_completions}: every statement is scoped by entity; pages follow {@code seq},
 * the storing order; a batch is one transaction, a duplicate id within an entity skipped.
 */
@Singleton
@Transactional
class JdbcStoredCompletionStore implements StoredCompletionStore {

    private static final String SELECT = "SELECT " + StoredCompletionRow.COLUMNS + " FROM stored_completions ";

    private final Sql sql;
    private final Json json;

    JdbcStoredCompletionStore(Sql sql, Json json) {
        this.sql = sql;
        this.json = json;
    }

    @Override
    public int insertAll(List<StoredCompletion> completions) {
        int stored = 0;
        for (StoredCompletion completion : completions) {
            stored += sql.update("INSERT INTO stored_completions (" + StoredCompletionRow.COLUMNS + ") VALUES ("
                    + StoredCompletionRow.VALUES + ") ON CONFLICT (entity, id) DO NOTHING",
                    StoredCompletionRow.of(completion, json).values());
        }
        return stored;
    }

    @Override
    public Optional<StoredCompletion> find(EntityName entity, String id) {
        return sql.queryOne(SELECT + "WHERE entity = ? AND id = ?", StoredCompletionRow::read, entity.value(), id)
                .map(row -> row.toDomain(json));
    }

    @Override
    public List<StoredCompletion> fetch(StoredCompletionQuery query) {
        boolean asc = query.order() == SortOrder.ASC;
        StringBuilder text = new StringBuilder(SELECT + "WHERE entity = ?");
        List<Object> params = new ArrayList<>(List.of(query.entity().value()));
        query.project().ifPresent(project -> {
            text.append(" AND project = ?");
            params.add(project);
        });
        query.model().ifPresent(model -> {
            text.append(" AND model = ?");
            params.add(model);
        });
        if (!query.metadata().isEmpty()) {
            text.append(" AND metadata @> CAST(? AS jsonb)");
            params.add(json.write(query.metadata()));
        }
        query.createdFrom().ifPresent(from -> {
            text.append(" AND created_at >= ?");
            params.add(from);
        });
        query.createdBefore().ifPresent(before -> {
            text.append(" AND created_at < ?");
            params.add(before);
        });
        if (!query.ids().isEmpty()) {
            text.append(" AND id = ANY(?::text[])");
            params.add(query.ids().toArray(String[]::new));
        }
        query.after().ifPresent(after -> {
            text.append(asc ? " AND seq > " : " AND seq < ")
                    .append("(SELECT seq FROM stored_completions WHERE entity = ? AND id = ?)");
            params.add(query.entity().value());
            params.add(after);
        });
        text.append(" ORDER BY seq ").append(asc ? "ASC" : "DESC").append(" LIMIT ?");
        params.add(query.fetchSize());
        return sql.query(text.toString(), StoredCompletionRow::read, params.toArray()).stream()
                .map(row -> row.toDomain(json)).toList();
    }

    @Override
    public Optional<StoredCompletion> replaceMetadata(EntityName entity, String id, CompletionMetadata metadata) {
        int updated = sql.update("UPDATE stored_completions SET metadata = CAST(? AS jsonb) WHERE entity = ? AND id = ?",
                json.write(metadata.pairs()), entity.value(), id);
        return updated == 0 ? Optional.empty() : find(entity, id);
    }

    @Override
    public boolean delete(EntityName entity, String id) {
        return sql.update("DELETE FROM stored_completions WHERE entity = ? AND id = ?", entity.value(), id) > 0;
    }
}
