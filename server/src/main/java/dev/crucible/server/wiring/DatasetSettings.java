package dev.crucible.server.wiring;

import dev.crucible.application.dataset.DatasetLimits;
import io.micronaut.context.annotation.ConfigurationProperties;

/**
 * What the closed loop's data may hold: stored completions' write queue, datasets' bounds and lineage's guard
 * ({@code crucible.stored-completions.*}, {@code crucible.datasets.*}, {@code crucible.lineage.*}); the defaults live
 * in {@code application.yml}.
 */
@ConfigurationProperties("crucible")
record DatasetSettings(StoredCompletions storedCompletions, Datasets datasets, Lineage lineage) {

    /**
     * @param queue the stored completions waiting to be written; past it they are dropped and logged
     * @param batch the most stored completions one insert writes
     */
    @ConfigurationProperties("stored-completions")
    record StoredCompletions(int queue, int batch) {
    }

    /**
     * @param maxRows the rows one dataset may hold
     * @param maxCompletions the stored completions one dataset may read
     */
    @ConfigurationProperties("datasets")
    record Datasets(int maxRows, int maxCompletions) {

        DatasetLimits limits() {
            return new DatasetLimits(maxRows, maxCompletions);
        }
    }

    /** @param refuseErasure whether deleting a completion or feedback row that trained a checkpoint is a 409 */
    @ConfigurationProperties("lineage")
    record Lineage(boolean refuseErasure) {
    }
}
