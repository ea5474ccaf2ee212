package dev.crucible.application.usage;

import dev.crucible.domain.usage.TrainingUsage;
import java.util.List;

/**
 * Where training usage is kept, durably, summed per minute, entity, project, model and key. Thread-safe; each method
 * is one transaction.
 */
public interface TrainingUsageLedger {

    /** Adds {@code usage} to its minute's sums (one more operation). Blocks for one database write. */
    void add(TrainingUsage usage);

    /**
     * The sums of {@code selection}'s buckets, one row per bucket, project, model and key that has usage, ordered by
     * bucket then project, model and key. Buckets without usage have no row.
     */
    List<Row> totals(UsageLedger.Selection selection);

    /** The sums of one bucket, project ({@code <team>/<project>}), model and key. */
    record Row(long bucketStart, String projectId, String model, String apiKeyId, long trainedTokens,
            long forwardTokens, long operations) implements UsageLedger.Grouped {
    }
}
