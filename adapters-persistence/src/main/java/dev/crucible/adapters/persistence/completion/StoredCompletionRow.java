package dev.crucible.adapters.persistence.completion;

import dev.crucible.adapters.persistence.sql.JdbcStore;
import dev.crucible.adapters.persistence.sql.Json;
import dev.crucible.adapters.persistence.sql.Sql;
import dev.crucible.domain.completion.CompletionMetadata;
import dev.crucible.domain.completion.CompletionTokens;
import dev.crucible.domain.completion.StoredCompletion;
import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.domain.usage.UsageProject;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A row of {@code stored_completions}, its JSON columns as text; mapped to and from {@link StoredCompletion}. */
record StoredCompletionRow(String entity, String id, String project, Instant createdAt, String model,
        String messages, String choices, long promptTokens, long completionTokens, String metadata, String params)
        implements JdbcStore.JsonRow<StoredCompletion> {

    static final String COLUMNS = "entity, id, project, created_at, model, messages, choices, prompt_tokens, "
            + "completion_tokens, metadata, params";
    static final String VALUES = "?, ?, ?, ?, ?, CAST(? AS json), CAST(? AS json), ?, ?, CAST(? AS jsonb), "
            + "CAST(? AS json)";

    static StoredCompletionRow of(StoredCompletion completion, Json json) {
        return new StoredCompletionRow(completion.entity().value(), completion.id(), completion.project().name(),
                completion.created(), completion.model(), json.write(completion.messages()),
                json.write(completion.choices()), completion.usage().prompt(), completion.usage().completion(),
                json.write(completion.metadata().pairs()), json.write(completion.params()));
    }

    static StoredCompletionRow read(ResultSet rs) throws SQLException {
        return new StoredCompletionRow(rs.getString("entity"), rs.getString("id"), rs.getString("project"),
                Sql.instant(rs, "created_at"), rs.getString("model"), rs.getString("messages"), rs.getString("choices"),
                rs.getLong("prompt_tokens"), rs.getLong("completion_tokens"), rs.getString("metadata"),
                rs.getString("params"));
    }

    Object[] values() {
        return new Object[] {entity, id, project, createdAt, model, messages, choices, promptTokens, completionTokens,
            metadata, params};
    }

    @Override
    public StoredCompletion toDomain(Json json) {
        Map<String, String> pairs = new LinkedHashMap<>();
        json.readObject(metadata).forEach((k, v) -> pairs.put(k, (String) v));
        return new StoredCompletion(id, new UsageProject(new EntityName(entity), project), createdAt, model,
                objects(json.readList(messages)), objects(json.readList(choices)),
                new CompletionTokens(promptTokens, completionTokens), new CompletionMetadata(pairs),
                json.readObject(params));
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> objects(List<Object> items) {
        List<Map<String, Object>> out = new ArrayList<>(items.size());
        items.forEach(item -> out.add((Map<String, Object>) item));
        return out;
    }
}
