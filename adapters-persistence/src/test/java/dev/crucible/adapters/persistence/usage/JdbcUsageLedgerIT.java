package dev.crucible.adapters.persistence.usage;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.adapters.persistence.StoreContext;
import dev.crucible.application.usage.UsageLedger;
import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.domain.usage.BucketWidth;
import dev.crucible.domain.usage.CompletionUsage;
import dev.crucible.domain.usage.UsageProject;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** Completion usage on a real PostgreSQL: minutes add up, buckets group them, filters and entities narrow them. */
class JdbcUsageLedgerIT {

    private static final EntityName ADA = new EntityName("ada");
    private static final long DAY = 86_400 * 20_000L;

    @AutoClose
    private final StoreContext stores = StoreContext.start();
    private final UsageLedger ledger = stores.bean(UsageLedger.class);

    @Test
    void completionsAddUpPerBucketProjectModelAndKey() {
        UUID key = UUID.randomUUID();
        UsageProject project = UsageProject.defaultOf(ADA);
        ledger.add(new CompletionUsage(ADA, project, "m", key, Instant.ofEpochSecond(DAY + 10), 5, 2, 1));
        ledger.add(new CompletionUsage(ADA, project, "m", key, Instant.ofEpochSecond(DAY + 70), 7, 3, 0));
        ledger.add(new CompletionUsage(ADA, project, "other", key, Instant.ofEpochSecond(DAY + 80), 1, 1, 0));
        ledger.add(new CompletionUsage(new EntityName("bob"), UsageProject.defaultOf(new EntityName("bob")), "m",
                key, Instant.ofEpochSecond(DAY + 10), 100, 100, 0));

        List<UsageLedger.Row> daily = ledger.totals(new UsageLedger.Selection(ADA, DAY, DAY + 86_400, BucketWidth.DAY,
                Set.of(), Set.of("m"), Set.of()));

        assertEquals(List.of(new UsageLedger.Row(DAY, project.toString(), "m", key.toString(), 12, 5, 1, 2)), daily);
        assertEquals(2, ledger.totals(new UsageLedger.Selection(ADA, DAY, DAY + 86_400, BucketWidth.MINUTE,
                Set.of(), Set.of("m"), Set.of())).size(), "two minutes");
        assertEquals(List.of(), ledger.totals(new UsageLedger.Selection(ADA, DAY, DAY + 86_400, BucketWidth.DAY,
                Set.of("ada/elsewhere"), Set.of(), Set.of())));
    }
}
