package dev.crucible.adapters.persistence.usage;

import dev.crucible.adapters.persistence.sql.Sql;
import dev.crucible.application.usage.UsageLedger;
import dev.crucible.domain.usage.BucketWidth;
import dev.crucible.domain.usage.CompletionUsage;
import dev.crucible.domain.usage.RecordedUsage;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Usage in {@code completion_usage}: a completion is added to its minute's row by one upsert (PostgreSQL serialises
 * two upserts of one row, so none is lost); a read sums the minutes into the asked width's buckets.
 */
@Singleton
@Transactional
class JdbcUsageLedger implements UsageLedger {

    private static final String ADD = upsert("completion_usage",
            List.of("input_tokens", "output_tokens", "input_cached_tokens"), "num_model_requests");

    // an empty filter array selects everything; %s are the table and its sums, fixed names of this package
    private static final String TOTALS = "SELECT (minute_start / ?) * ? AS bucket, project_id, model, api_key_id, "
            + "%s FROM %s WHERE entity = ? AND minute_start >= ? AND minute_start < ? "
            + "AND (cardinality(?::text[]) = 0 OR project_id = ANY(?::text[])) "
            + "AND (cardinality(?::text[]) = 0 OR model = ANY(?::text[])) "
            + "AND (cardinality(?::text[]) = 0 OR api_key_id = ANY(?::text[])) "
            + "GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4";

    private final Sql sql;

    JdbcUsageLedger(Sql sql) {
        this.sql = sql;
    }

    @Override
    public void add(CompletionUsage usage) {
        add(sql, ADD, usage, usage.inputTokens(), usage.outputTokens(), usage.cachedTokens());
    }

    @Override
    public List<Row> totals(Selection selection) {
        return totals(sql, "completion_usage", "sum(input_tokens), sum(output_tokens), sum(input_cached_tokens), "
                + "sum(num_model_requests)", rs -> new Row(rs.getLong(1), rs.getString(2), rs.getString(3),
                rs.getString(4), rs.getLong(5), rs.getLong(6), rs.getLong(7), rs.getLong(8)), selection);
    }

    /**
     * The upsert that adds one call to its minute's row of usage {@code table} (keyed by entity, minute, project, model
     * and key): each of {@code counts} grows by the call's, and {@code calls} by one.
     */
    static String upsert(String table, List<String> counts, String calls) {
        String key = "entity, minute_start, project_id, model, api_key_id";
        return "INSERT INTO " + table + " (" + key + ", " + String.join(", ", counts) + ", " + calls + ") VALUES ("
                + "?, ".repeat(5 + counts.size()) + "1) ON CONFLICT (" + key + ") DO UPDATE SET "
                + counts.stream().map(c -> c + " = " + table + "." + c + " + EXCLUDED." + c + ", ")
                        .collect(Collectors.joining())
                + calls + " = " + table + "." + calls + " + 1";
    }

    /**
     * Adds {@code usage} to its minute's row by {@code upsert}, whose parameters are the row's key (entity, minute,
     * project, model and key) and then {@code counts}.
     */
    static void add(Sql sql, String upsert, RecordedUsage usage, Object... counts) {
        long minute = BucketWidth.MINUTE.bucketOf(usage.endedAt().getEpochSecond());
        Object[] key = {usage.entity().value(), minute, usage.project().toString(), usage.model(),
            usage.apiKeyId().toString()};
        sql.update(upsert, Stream.concat(Arrays.stream(key), Arrays.stream(counts)).toArray());
    }

    /**
     * The rows of {@code selection} from usage {@code table} (keyed by entity, minute, project, model and key): the
     * group's columns first, then {@code sums}, read by {@code row}.
     */
    static <T> List<T> totals(Sql sql, String table, String sums, Sql.RowMapper<T> row, Selection selection) {
        long w = selection.width().seconds();
        String[] projects = array(selection.projectIds());
        String[] models = array(selection.models());
        String[] keys = array(selection.apiKeyIds());
        return sql.query(TOTALS.formatted(sums, table), row, w, w, selection.entity().value(), selection.from(),
                selection.to(), projects, projects, models, models, keys, keys);
    }

    private static String[] array(Set<String> values) {
        return values.toArray(String[]::new);
    }
}
