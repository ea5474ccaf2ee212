package dev.crucible.application.usage;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.domain.usage.BucketWidth;
import dev.crucible.domain.usage.TrainingTotals;
import dev.crucible.domain.usage.TrainingUsage;
import dev.crucible.domain.usage.UsageField;
import dev.crucible.domain.usage.UsageQuery;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Training usage is paged as completions are: the ledger's rows merged by group_by, ungrouped fields empty. */
class QueryTrainingUsageServiceTest {

    private static final EntityName ALICE = new EntityName("alice");
    private static final long HOUR = 3_600 * 500_000L;

    private final TrainingUsageLedger ledger = new TrainingUsageLedger() {
        @Override
        public void add(TrainingUsage usage) {
            throw new AssertionError("not written here");
        }

        @Override
        public List<Row> totals(UsageLedger.Selection selection) {
            return List.of(new Row(HOUR, "alice/default", "m", "k1", 5, 0, 1),
                    new Row(HOUR, "alice/default", "m", "k2", 3, 4, 2),
                    new Row(HOUR, "alice/default", "n", "k1", 1, 0, 1));
        }
    };
    private final QueryTrainingUsageService service = new QueryTrainingUsageService(ledger,
            Clock.fixed(Instant.ofEpochSecond(HOUR + 10), ZoneOffset.UTC));

    private List<TrainingTotals> results(Set<UsageField> groupBy) {
        return value(service.query(value(UsageQuery.of(ALICE, HOUR, OptionalLong.of(HOUR + 3_600), BucketWidth.HOUR,
                groupBy, Set.of(), Set.of(), Set.of(), Optional.empty(), OptionalLong.empty(), OptionalLong.empty()))))
                .buckets().getFirst().results();
    }

    @Test
    void rowsMergeByModelWithTheOtherFieldsEmpty() {
        assertEquals(List.of(new TrainingTotals(Optional.empty(), Optional.of("m"), Optional.empty(), 8, 4, 3),
                new TrainingTotals(Optional.empty(), Optional.of("n"), Optional.empty(), 1, 0, 1)),
                results(Set.of(UsageField.MODEL)));
    }

    @Test
    void withoutGroupByOneTotal() {
        assertEquals(List.of(new TrainingTotals(Optional.empty(), Optional.empty(), Optional.empty(), 9, 4, 4)),
                results(Set.of()));
    }
}
