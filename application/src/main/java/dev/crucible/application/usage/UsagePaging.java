package dev.crucible.application.usage;

import dev.crucible.domain.usage.BucketWidth;
import dev.crucible.domain.usage.UsageBucket;
import dev.crucible.domain.usage.UsageField;
import dev.crucible.domain.usage.UsagePage;
import dev.crucible.domain.usage.UsageQuery;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.BiFunction;
import java.util.function.BinaryOperator;
import java.util.function.Function;

/**
 * The paging both usage routes share: a ledger's per-bucket sums merged by the query's {@code group_by}. Every bucket
 * of a page is answered, empty ones with no results; a range with more buckets than {@code limit} continues on the
 * next page. A range without {@code end_time} ends now.
 */
final class UsagePaging {

    /** The values one result is grouped by; a field the query does not group by is empty. */
    record Group(Optional<String> projectId, Optional<String> model, Optional<String> apiKeyId,
            Optional<Boolean> batch) {
    }

    private static final Comparator<Group> ORDER = Comparator
            .comparing((Group g) -> g.projectId().orElse(""))
            .thenComparing(g -> g.model().orElse(""))
            .thenComparing(g -> g.apiKeyId().orElse(""));

    private UsagePaging() {
    }

    /**
     * The page {@code query} asks for from {@code read}'s rows, each made a result by {@code totals} and merged with
     * its group's others by {@code plus}.
     */
    static <R extends UsageLedger.Grouped, T> Outcome<UsagePage<T>> page(UsageQuery query, Clock clock,
            Function<UsageLedger.Selection, List<R>> read, BiFunction<Group, R, T> totals, BinaryOperator<T> plus) {
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
        Map<Long, Map<Group, T>> merged = new LinkedHashMap<>();
        if (!query.batch().orElse(false)) {
            for (R row : read.apply(new UsageLedger.Selection(query.entity(), first, to, width, query.projectIds(),
                    query.models(), query.apiKeyIds()))) {
                Group group = new Group(kept(query, UsageField.PROJECT_ID, row.projectId()),
                        kept(query, UsageField.MODEL, row.model()), kept(query, UsageField.API_KEY_ID, row.apiKeyId()),
                        kept(query, UsageField.BATCH, false));
                merged.computeIfAbsent(row.bucketStart(), b -> new LinkedHashMap<>())
                        .merge(group, totals.apply(group, row), plus);
            }
        }
        List<UsageBucket<T>> page = new ArrayList<>();
        for (long start = first; start < to; start += w) {
            List<T> results = merged.getOrDefault(start, Map.of()).entrySet().stream()
                    .sorted(Map.Entry.comparingByKey(ORDER)).map(Map.Entry::getValue).toList();
            page.add(new UsageBucket<>(start, start + w, results));
        }
        return Outcome.done(new UsagePage<>(page, buckets > count ? OptionalLong.of(to) : OptionalLong.empty()));
    }

    private static <T> Optional<T> kept(UsageQuery query, UsageField field, T value) {
        return query.groupBy().contains(field) ? Optional.of(value) : Optional.empty();
    }
}
