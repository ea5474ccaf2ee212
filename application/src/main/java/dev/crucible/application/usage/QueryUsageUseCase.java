package dev.crucible.application.usage;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.usage.UsagePage;
import dev.crucible.domain.usage.UsageQuery;
import dev.crucible.domain.usage.UsageTotals;

/**
 * Reads one entity's completion usage in time buckets, one page at a time. A completion counts once its
 * generation ended and its usage was written, moments after its response.
 */
public interface QueryUsageUseCase {

    /** The page of buckets {@code query} asks for; refused (naming {@code page}) for a cursor outside its range. */
    Outcome<UsagePage<UsageTotals>> query(UsageQuery query);
}
