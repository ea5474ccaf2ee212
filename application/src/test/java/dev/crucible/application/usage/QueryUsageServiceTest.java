package dev.crucible.application.usage;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.domain.usage.BucketWidth;
import dev.crucible.domain.usage.CompletionUsage;
import dev.crucible.domain.usage.UsageBucket;
import dev.crucible.domain.usage.UsageField;
import dev.crucible.domain.usage.UsagePage;
import dev.crucible.domain.usage.UsageProject;
import dev.crucible.domain.usage.UsageQuery;
import dev.crucible.domain.usage.UsageTotals;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Buckets from the ledger's sums: every bucket of a page answered (empty ones too), results merged by group_by
 * with ungrouped fields empty, pages of {@code limit} buckets continuing where the last ended.
 */
class QueryUsageServiceTest {

    private static final EntityName ALICE = new EntityName("alice");
    private static final UUID KEY_A = UUID.fromString("00000000-0000-0000-0000-00000000000a");
    private static final UUID KEY_B = UUID.fromString("00000000-0000-0000-0000-00000000000b");
    private static final long DAY = 86_400;
    /** Noon of day 20,000 since the epoch. */
    private static final long NOON = 20_000 * DAY + DAY / 2;

    /** The ledger as a list, summed the way the database sums it. */
    private static final class ListLedger implements UsageLedger {
        final List<CompletionUsage> added = new ArrayList<>();
        Selection asked;

        @Override
        public void add(CompletionUsage usage) {
            added.add(usage);
        }

        @Override
        public List<Row> totals(Selection selection) {
            asked = selection;
            long w = selection.width().seconds();
            return added.stream()
                    .filter(u -> u.entity().equals(selection.entity()))
                    .filter(u -> u.endedAt().getEpochSecond() >= selection.from()
                            && u.endedAt().getEpochSecond() < selection.to())
                    .filter(u -> selection.projectIds().isEmpty()
                            || selection.projectIds().contains(u.project().toString()))
                    .filter(u -> selection.models().isEmpty() || selection.models().contains(u.model()))
                    .map(u -> new Row(u.endedAt().getEpochSecond() / w * w, u.project().toString(), u.model(),
                            u.apiKeyId().toString(), u.inputTokens(), u.outputTokens(), u.cachedTokens(), 1))
                    .toList();
        }
    }

    private final ListLedger ledger = new ListLedger();
    private final QueryUsageService service = new QueryUsageService(ledger,
            Clock.fixed(Instant.ofEpochSecond(NOON + 2 * DAY), ZoneOffset.UTC));

    private void used(long at, String project, String model, UUID key, long in, long out) {
        ledger.add(new CompletionUsage(ALICE, new UsageProject(ALICE, project), model, key, Instant.ofEpochSecond(at),
                in, out, 0));
    }

    private static UsageQuery query(long start, OptionalLong end, BucketWidth width, Set<UsageField> groupBy,
            Set<String> projects, int limit, OptionalLong page) {
        return value(UsageQuery.of(ALICE, start, end, width, groupBy, projects, Set.of(), Set.of(), Optional.empty(),
                OptionalLong.of(limit), page));
    }

    @Test
    void everyBucketOfTheRangeIsAnsweredEmptyOnesWithoutResults() {
        used(NOON, "p1", "m", KEY_A, 10, 2);
        used(NOON + 1, "p1", "m", KEY_B, 5, 1);
        var page = value(service.query(query(NOON - DAY, OptionalLong.of(NOON + DAY + 1), BucketWidth.DAY,
                Set.of(), Set.of(), 7, OptionalLong.empty())));
        assertEquals(List.of(NOON - DAY - DAY / 2, NOON - DAY / 2, NOON + DAY / 2),
                page.buckets().stream().map(UsageBucket::startTime).toList(), "aligned to UTC days");
        assertEquals(List.of(), page.buckets().getFirst().results());
        assertEquals(List.of(new UsageTotals(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                15, 3, 0, 2)), page.buckets().get(1).results());
        assertEquals(OptionalLong.empty(), page.nextPage());
    }

    @Test
    void groupByKeepsOnlyItsFieldsAndSplitsTheSums() {
        used(NOON, "p1", "m1", KEY_A, 10, 2);
        used(NOON, "p1", "m2", KEY_A, 1, 1);
        used(NOON, "p2", "m1", KEY_B, 4, 4);
        List<UsageTotals> results = value(service.query(query(NOON, OptionalLong.of(NOON + 1), BucketWidth.DAY,
                Set.of(UsageField.PROJECT_ID, UsageField.BATCH), Set.of(), 7, OptionalLong.empty())))
                .buckets().getFirst().results();
        assertEquals(List.of(
                new UsageTotals(Optional.of("alice/p1"), Optional.empty(), Optional.empty(), Optional.of(false),
                        11, 3, 0, 2),
                new UsageTotals(Optional.of("alice/p2"), Optional.empty(), Optional.empty(), Optional.of(false),
                        4, 4, 0, 1)), results);
    }

    @Test
    void pagesHoldLimitBucketsAndTheCursorContinuesThere() {
        used(NOON, "p1", "m", KEY_A, 10, 2);
        long start = NOON - 3 * 3600;
        UsageQuery first = query(start, OptionalLong.of(NOON + 3600), BucketWidth.HOUR, Set.of(), Set.of(), 2,
                OptionalLong.empty());
        var one = value(service.query(first));
        assertEquals(2, one.buckets().size());
        assertEquals(OptionalLong.of(start + 2 * 3600), one.nextPage());
        var two = value(service.query(query(start, OptionalLong.of(NOON + 3600), BucketWidth.HOUR, Set.of(),
                Set.of(), 2, one.nextPage())));
        assertEquals(List.of(start + 2 * 3600, NOON), two.buckets().stream().map(UsageBucket::startTime).toList());
        assertEquals(1, two.buckets().get(1).results().size());
        assertEquals(OptionalLong.empty(), two.nextPage());
    }

    @Test
    void withoutEndTheRangeEndsWithTheBucketHoldingNow() {
        var page = value(service.query(query(NOON, OptionalLong.empty(), BucketWidth.DAY, Set.of(), Set.of(),
                7, OptionalLong.empty())));
        assertEquals(3, page.buckets().size(), "today and the two days after");
    }

    @Test
    void aCursorOutsideTheRangeOrOffTheGridIsRefusedNamingPage() {
        for (long cursor : List.of(NOON - 10 * DAY - DAY / 2, NOON + 5, NOON + 30 * DAY)) {
            Outcome<UsagePage<UsageTotals>> outcome = service.query(query(NOON, OptionalLong.of(NOON + DAY),
                    BucketWidth.DAY, Set.of(), Set.of(), 7, OptionalLong.of(cursor)));
            assertEquals("page", assertInstanceOf(Outcome.Refused.class, outcome).refusal().param());
        }
    }

    @Test
    void batchOnlyIsEmptyAndFiltersReachTheLedger() {
        used(NOON, "p1", "m", KEY_A, 10, 2);
        var batch = value(service.query(value(UsageQuery.of(ALICE, NOON, OptionalLong.of(NOON + 1),
                BucketWidth.DAY, Set.of(), Set.of(), Set.of(), Set.of(), Optional.of(true), OptionalLong.empty(),
                OptionalLong.empty()))));
        assertEquals(List.of(), batch.buckets().getFirst().results(), "Crucible has no batch completions");
        value(service.query(query(NOON, OptionalLong.of(NOON + 1), BucketWidth.DAY, Set.of(), Set.of("alice/p9"), 7,
                OptionalLong.empty())));
        assertEquals(Set.of("alice/p9"), ledger.asked.projectIds());
    }
}
