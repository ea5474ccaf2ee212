package dev.crucible.application.usage;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.usage.UsagePage;
import dev.crucible.domain.usage.UsageQuery;
import dev.crucible.domain.usage.UsageTotals;
import java.time.Clock;

/** Completion usage buckets from the ledger's per-bucket sums, paged as {@link UsagePaging} does. Thread-safe. */
public record QueryUsageService(UsageLedger ledger, Clock clock) implements QueryUsageUseCase {

    @Override
    public Outcome<UsagePage<UsageTotals>> query(UsageQuery query) {
        return UsagePaging.page(query, clock, ledger::totals, (group, row) -> new UsageTotals(group.projectId(),
                group.model(), group.apiKeyId(), group.batch(), row.inputTokens(), row.outputTokens(),
                row.cachedTokens(), row.modelRequests()), UsageTotals::plus);
    }
}
