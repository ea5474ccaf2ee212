package dev.crucible.application.usage;

import dev.crucible.domain.usage.TrainingTotals;
import dev.crucible.domain.usage.UsagePage;
import dev.crucible.domain.usage.UsageQuery;
import dev.crucible.kernel.refusal.Outcome;

/**
 * Reads one entity's training usage (tokens trained and scored by Tinker's {@code forward_backward} and
 * {@code forward}) in time buckets, one page at a time, with the completion usage's parameters.
 */
public interface QueryTrainingUsageUseCase {

    /** The page of buckets {@code query} asks for; refused (naming {@code page}) for a cursor outside its range. */
    Outcome<UsagePage<TrainingTotals>> query(UsageQuery query);
}
