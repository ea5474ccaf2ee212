package dev.crucible.application.usage;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.usage.UsagePage;
import dev.crucible.domain.usage.UsageQuery;
import dev.crucible.domain.usage.UsageTotals;
import java.time.Clock;
import java.util.Objects;

/** Completion usage buckets from the ledger's per-bucket sums, paged as {@link UsagePaging} does. Thread-safe. */
public final class QueryUsageService implements QueryUsageUseCase {

    private final UsageLedger ledger;
    private final Clock clock;

    public QueryUsageService(UsageLedger ledger, Clock clock) {
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public Outcome<UsagePage<UsageTotals>> query(UsageQuery query) {
        return UsagePaging.page(query, clock, ledger::totals, (group, row) -> new UsageTotals(group.projectId(),
                group.model(), group.apiKeyId(), group.batch(), row.inputTokens(), row.outputTokens(),
                row.cachedTokens(), row.modelRequests()), UsageTotals::plus);
    }
}
