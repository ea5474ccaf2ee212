package dev.crucible.application.usage;

import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.domain.usage.BucketWidth;
import dev.crucible.domain.usage.CompletionUsage;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Where completion usage is kept, durably, summed per minute, entity, project, model and key. Thread-safe; each
 * method is one transaction.
 */
public interface UsageLedger {

    /** Adds {@code usage} to its minute's sums (one more model request). Blocks for one database write. */
    void add(CompletionUsage usage);

    /**
     * The sums of {@code selection}'s buckets, one row per bucket, project, model and key that has usage, ordered by
     * bucket then project, model and key. Buckets without usage have no row.
     */
    List<Row> totals(Selection selection);

    /**
     * @param entity     whose usage
     * @param from       the first bucket's start (aligned to {@code width}), inclusive
     * @param to         the end of the last bucket, exclusive
     * @param width      the buckets' width
     * @param projectIds only these projects; empty for all (likewise {@code models} and {@code apiKeyIds})
     */
    record Selection(EntityName entity, long from, long to, BucketWidth width, Set<String> projectIds,
            Set<String> models, Set<String> apiKeyIds) {

        public Selection {
            Objects.requireNonNull(entity, "entity");
            Objects.requireNonNull(width, "width");
            projectIds = Set.copyOf(projectIds);
            models = Set.copyOf(models);
            apiKeyIds = Set.copyOf(apiKeyIds);
        }
    }

    /** The sums of one bucket, project ({@code <team>/<project>}), model and key. */
    record Row(long bucketStart, String projectId, String model, String apiKeyId, long inputTokens,
            long outputTokens, long cachedTokens, long modelRequests) implements Grouped {
    }

    /** What a ledger's row is grouped by: its bucket, project, model and key. */
    interface Grouped {
        long bucketStart();

        String projectId();

        String model();

        String apiKeyId();
    }
}
