package dev.crucible.application.usage;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.usage.BucketWidth;
import dev.crucible.domain.usage.UsageBucket;
import dev.crucible.domain.usage.UsageField;
import dev.crucible.domain.usage.UsagePage;
import dev.crucible.domain.usage.UsageQuery;
import dev.crucible.domain.usage.UsageTotals;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Usage buckets from the ledger's per-bucket sums, merged by the query's {@code group_by}. Every bucket of a page is
 * answered, empty ones with no results; a range with more buckets than {@code limit} continues on the next page.
 * A range without {@code end_time} ends now. Thread-safe.
 */
public final class QueryUsageService implements QueryUsageUseCase {

    private static final Comparator<UsageTotals> BY_GROUP = Comparator
            .comparing((UsageTotals t) -> t.projectId().orElse(""))
            .thenComparing(t -> t.model().orElse(""))
            .thenComparing(t -> t.apiKeyId().orElse(""));

    private final UsageLedger ledger;
    private final Clock clock;

    public QueryUsageService(UsageLedger ledger, Clock clock) {
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public Outcome<UsagePage> query(UsageQuery query) {
        BucketWidth width = query.width();
        long w = width.seconds();
        long end = query.endTime().orElse(Math.min(UsageQuery.MAX_TIME, clock.instant().getEpochSecond() + 1));
        long rangeStart = width.bucketOf(query.startTime());
        long rangeEnd = end <= query.startTime() ? rangeStart + w : width.bucketOf(end - 1) + w;
        long first = query.page().orElse(rangeStart);
        if (first < rangeStart || first >= rangeEnd || first % w != 0) {
            return Outcome.refused(Refusal.invalid("page",
                    "page is not a next_page of this query's range and bucket_width"));
        }
        long buckets = (rangeEnd - first) / w;
        long count = Math.min(buckets, query.limit());
        long to = first + count * w;
        Map<Long, List<UsageTotals>> byBucket = query.batch().orElse(false) ? Map.of() : grouped(query, first, to);
        List<UsageBucket> page = new ArrayList<>();
        for (long start = first; start < to; start += w) {
            page.add(new UsageBucket(start, start + w, byBucket.getOrDefault(start, List.of())));
        }
        return Outcome.done(new UsagePage(page, buckets > count ? OptionalLong.of(to) : OptionalLong.empty()));
    }

    /** The ledger's rows of {@code [from, to)}, merged per bucket by the query's grouping, each bucket ordered. */
    private Map<Long, List<UsageTotals>> grouped(UsageQuery query, long from, long to) {
        List<UsageLedger.Row> rows = ledger.totals(new UsageLedger.Selection(query.entity(), from, to, query.width(),
                query.projectIds(), query.models(), query.apiKeyIds()));
        Map<Long, Map<List<Object>, UsageTotals>> merged = new LinkedHashMap<>();
        for (UsageLedger.Row row : rows) {
            UsageTotals totals = totals(query, row);
            List<Object> group = List.of(totals.projectId(), totals.model(), totals.apiKeyId(), totals.batch());
            merged.computeIfAbsent(row.bucketStart(), b -> new LinkedHashMap<>()).merge(group, totals,
                    UsageTotals::plus);
        }
        Map<Long, List<UsageTotals>> out = new LinkedHashMap<>();
        merged.forEach((bucket, groups) -> out.put(bucket, groups.values().stream().sorted(BY_GROUP).toList()));
        return out;
    }

    private static UsageTotals totals(UsageQuery query, UsageLedger.Row row) {
        return new UsageTotals(
                kept(query, UsageField.PROJECT_ID, row.projectId()),
                kept(query, UsageField.MODEL, row.model()),
                kept(query, UsageField.API_KEY_ID, row.apiKeyId()),
                kept(query, UsageField.BATCH, false),
                row.inputTokens(), row.outputTokens(), row.cachedTokens(), row.modelRequests());
    }

    private static <T> Optional<T> kept(UsageQuery query, UsageField field, T value) {
        return query.groupBy().contains(field) ? Optional.of(value) : Optional.empty();
    }
}
