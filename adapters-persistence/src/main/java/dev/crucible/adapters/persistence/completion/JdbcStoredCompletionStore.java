package dev.crucible.adapters.persistence.completion;

import dev.crucible.adapters.persistence.sql.JdbcStore;
import dev.crucible.adapters.persistence.sql.Json;
import dev.crucible.adapters.persistence.sql.Sql;
import dev.crucible.adapters.persistence.sql.SqlText;
import dev.crucible.application.completion.StoredCompletionStore;
import dev.crucible.domain.completion.CompletionMetadata;
import dev.crucible.domain.completion.StoredCompletion;
import dev.crucible.domain.completion.StoredCompletionQuery;
import dev.crucible.domain.paging.SortOrder;
import dev.crucible.domain.tenancy.EntityName;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Optional;

/**
 * Stored completions in {@code stored_completions}: every statement is scoped by entity; pages follow {@code seq},
 * the storing order; a batch is one transaction, a duplicate id within an entity skipped.
 */
@Singleton
@Transactional
class JdbcStoredCompletionStore extends JdbcStore implements StoredCompletionStore {

    private static final String SELECT = "SELECT " + StoredCompletionRow.COLUMNS + " FROM stored_completions ";

    JdbcStoredCompletionStore(Sql sql, Json json) {
        super(sql, json);
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
        return row(SELECT + "WHERE entity = ? AND id = ?", StoredCompletionRow::read, entity.value(), id);
    }

    @Override
    public List<StoredCompletion> fetch(StoredCompletionQuery query) {
        boolean asc = query.order() == SortOrder.ASC;
        SqlText text = new SqlText(SELECT + "WHERE entity = ?", query.entity().value())
                .addIfPresent(" AND project = ?", query.project())
                .addIfPresent(" AND model = ?", query.model());
        if (!query.metadata().isEmpty()) {
            text.add(" AND metadata @> CAST(? AS jsonb)", json.write(query.metadata()));
        }
        text.addIfPresent(" AND created_at >= ?", query.createdFrom())
                .addIfPresent(" AND created_at < ?", query.createdBefore());
        if (!query.ids().isEmpty()) {
            text.add(" AND id = ANY(?::text[])", query.ids().toArray(String[]::new));
        }
        query.after().ifPresent(after -> text.add((asc ? " AND seq > " : " AND seq < ")
                + "(SELECT seq FROM stored_completions WHERE entity = ? AND id = ?)", query.entity().value(), after));
        text.add(" ORDER BY seq " + (asc ? "ASC" : "DESC") + " LIMIT ?", query.fetchSize());
        return rows(text.text(), StoredCompletionRow::read, text.params());
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
