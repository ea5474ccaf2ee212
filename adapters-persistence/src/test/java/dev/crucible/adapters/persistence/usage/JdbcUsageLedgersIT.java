package dev.crucible.adapters.persistence.usage;

import static dev.crucible.adapters.persistence.StoreContext.ADA;
import static dev.crucible.adapters.persistence.StoreContext.BOB;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.adapters.persistence.StoreContext;
import dev.crucible.application.usage.TrainingUsageLedger;
import dev.crucible.application.usage.UsageLedger;
import dev.crucible.domain.usage.BucketWidth;
import dev.crucible.domain.usage.CompletionUsage;
import dev.crucible.domain.usage.TrainingUsage;
import dev.crucible.domain.usage.UsageProject;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * Completion and training usage on a real PostgreSQL: minutes add up, buckets group them, filters and entities
 * narrow them.
 */
class JdbcUsageLedgersIT {

    private static final long DAY = 86_400 * 20_000L;

    @AutoClose
    private final StoreContext stores = StoreContext.start();
    private final UsageLedger completions = stores.bean(UsageLedger.class);
    private final TrainingUsageLedger training = stores.bean(TrainingUsageLedger.class);
    private final UUID key = UUID.randomUUID();
    private final UsageProject project = UsageProject.defaultOf(ADA);

    /** ADA's usage on {@link #DAY} in buckets of {@code width}, of {@code projects} and {@code models} (empty: any). */
    private static UsageLedger.Selection day(BucketWidth width, Set<String> projects, Set<String> models) {
        return new UsageLedger.Selection(ADA, DAY, DAY + 86_400, width, projects, models, Set.of());
    }

    private static Instant at(long secondsIntoTheDay) {
        return Instant.ofEpochSecond(DAY + secondsIntoTheDay);
    }

    @Test
    void completionsAddUpPerBucketProjectModelAndKey() {
        completions.add(new CompletionUsage(ADA, project, "m", key, at(10), 5, 2, 1));
        completions.add(new CompletionUsage(ADA, project, "m", key, at(70), 7, 3, 0));
        completions.add(new CompletionUsage(ADA, project, "other", key, at(80), 1, 1, 0));
        completions.add(new CompletionUsage(BOB, UsageProject.defaultOf(BOB), "m", key, at(10), 100, 100, 0));

        List<UsageLedger.Row> daily = completions.totals(day(BucketWidth.DAY, Set.of(), Set.of("m")));

        assertEquals(List.of(new UsageLedger.Row(DAY, project.toString(), "m", key.toString(), 12, 5, 1, 2)), daily);
        assertEquals(2, completions.totals(day(BucketWidth.MINUTE, Set.of(), Set.of("m"))).size(), "two minutes");
        assertEquals(List.of(), completions.totals(day(BucketWidth.DAY, Set.of("ada/elsewhere"), Set.of())));
    }

    @Test
    void operationsAddUpPerBucketProjectModelAndKey() {
        training.add(new TrainingUsage(ADA, project, "m", key, at(10), 5, 0));
        training.add(new TrainingUsage(ADA, project, "m", key, at(20), 7, 0));
        training.add(new TrainingUsage(ADA, project, "m", key, at(70), 0, 4));
        training.add(new TrainingUsage(ADA, project, "other", key, at(80), 1, 0));
        training.add(new TrainingUsage(BOB, UsageProject.defaultOf(BOB), "m", key, at(10), 100, 100));

        List<TrainingUsageLedger.Row> daily = training.totals(day(BucketWidth.DAY, Set.of(), Set.of("m")));

        assertEquals(List.of(new TrainingUsageLedger.Row(DAY, project.toString(), "m", key.toString(), 12, 4, 3)),
                daily);
        assertEquals(List.of(new TrainingUsageLedger.Row(DAY, project.toString(), "m", key.toString(), 12, 0, 2),
                new TrainingUsageLedger.Row(DAY + 60, project.toString(), "m", key.toString(), 0, 4, 1)),
                training.totals(day(BucketWidth.MINUTE, Set.of(), Set.of("m"))), "one row per minute");
        assertEquals(List.of(), training.totals(day(BucketWidth.DAY, Set.of("ada/elsewhere"), Set.of())));
    }
}
