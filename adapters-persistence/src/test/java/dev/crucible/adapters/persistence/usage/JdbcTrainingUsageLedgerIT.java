package dev.crucible.adapters.persistence.usage;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.adapters.persistence.StoreContext;
import dev.crucible.application.usage.TrainingUsageLedger;
import dev.crucible.application.usage.UsageLedger;
import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.domain.usage.BucketWidth;
import dev.crucible.domain.usage.TrainingUsage;
import dev.crucible.domain.usage.UsageProject;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** Training usage on a real PostgreSQL: operations add up per minute, buckets group them, entities stay apart. */
class JdbcTrainingUsageLedgerIT {

    private static final EntityName ADA = new EntityName("ada");
    private static final long DAY = 86_400 * 20_000L;

    @AutoClose
    private final StoreContext stores = StoreContext.start();
    private final TrainingUsageLedger ledger = stores.bean(TrainingUsageLedger.class);

    @Test
    void operationsAddUpPerBucketProjectModelAndKey() {
        UUID key = UUID.randomUUID();
        UsageProject project = UsageProject.defaultOf(ADA);
        ledger.add(new TrainingUsage(ADA, project, "m", key, Instant.ofEpochSecond(DAY + 10), 5, 0));
        ledger.add(new TrainingUsage(ADA, project, "m", key, Instant.ofEpochSecond(DAY + 20), 7, 0));
        ledger.add(new TrainingUsage(ADA, project, "m", key, Instant.ofEpochSecond(DAY + 70), 0, 4));
        ledger.add(new TrainingUsage(ADA, project, "other", key, Instant.ofEpochSecond(DAY + 80), 1, 0));
        ledger.add(new TrainingUsage(new EntityName("bob"), UsageProject.defaultOf(new EntityName("bob")), "m",
                key, Instant.ofEpochSecond(DAY + 10), 100, 100));

        List<TrainingUsageLedger.Row> daily = ledger.totals(new UsageLedger.Selection(ADA, DAY, DAY + 86_400,
                BucketWidth.DAY, Set.of(), Set.of("m"), Set.of()));

        assertEquals(List.of(new TrainingUsageLedger.Row(DAY, project.toString(), "m", key.toString(), 12, 4, 3)),
                daily);
        assertEquals(List.of(new TrainingUsageLedger.Row(DAY, project.toString(), "m", key.toString(), 12, 0, 2),
                new TrainingUsageLedger.Row(DAY + 60, project.toString(), "m", key.toString(), 0, 4, 1)),
                ledger.totals(new UsageLedger.Selection(ADA, DAY, DAY + 86_400, BucketWidth.MINUTE, Set.of(),
                        Set.of("m"), Set.of())), "one row per minute");
        assertEquals(List.of(), ledger.totals(new UsageLedger.Selection(ADA, DAY, DAY + 86_400, BucketWidth.DAY,
                Set.of("ada/elsewhere"), Set.of(), Set.of())));
    }
}
