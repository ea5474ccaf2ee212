package dev.crucible.application.usage;

import dev.crucible.domain.usage.TrainingTotals;
import dev.crucible.domain.usage.UsagePage;
import dev.crucible.domain.usage.UsageQuery;
import dev.crucible.kernel.refusal.Outcome;
import java.time.Clock;

/** Training usage buckets from the ledger's per-bucket sums, paged as {@link UsagePaging} does. Thread-safe. */
public record QueryTrainingUsageService(TrainingUsageLedger ledger, Clock clock) implements QueryTrainingUsageUseCase {

    @Override
    public Outcome<UsagePage<TrainingTotals>> query(UsageQuery query) {
        return UsagePaging.page(query, clock, ledger::totals, (group, row) -> new TrainingTotals(group.projectId(),
                group.model(), group.apiKeyId(), row.trainedTokens(), row.forwardTokens(), row.operations()),
                TrainingTotals::plus);
    }
}
