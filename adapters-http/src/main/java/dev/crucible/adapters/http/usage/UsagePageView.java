package dev.crucible.adapters.http.usage;

import dev.crucible.domain.usage.UsageBucket;
import dev.crucible.domain.usage.UsagePage;
import dev.crucible.domain.usage.UsageTotals;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.micronaut.serde.config.naming.SnakeCaseStrategy;
import java.util.List;

/**
 * One page of completion usage on the wire, in OpenAI's usage API shape: time buckets, each with a result per group.
 * Fields a query does not group by are {@code null}, as OpenAI writes them; Crucible counts no audio tokens.
 */
@Serdeable(naming = SnakeCaseStrategy.class)
record UsagePageView(String object, List<Bucket> data, boolean hasMore, @Nullable String nextPage) {

    static UsagePageView of(UsagePage page) {
        return new UsagePageView("page", page.buckets().stream().map(Bucket::of).toList(), page.nextPage().isPresent(),
                page.nextPage().isPresent() ? UsageParams.nextPage(page.nextPage().getAsLong()) : null);
    }

    /** One time bucket, {@code [start_time, end_time)} in Unix seconds. */
    @Serdeable(naming = SnakeCaseStrategy.class)
    record Bucket(String object, long startTime, long endTime, List<Result> results) {

        static Bucket of(UsageBucket bucket) {
            return new Bucket("bucket", bucket.startTime(), bucket.endTime(),
                    bucket.results().stream().map(Result::of).toList());
        }
    }

    /** One group's totals within a bucket. */
    @Serdeable(naming = SnakeCaseStrategy.class)
    record Result(String object, long inputTokens, long outputTokens, long inputCachedTokens, long inputAudioTokens,
            long outputAudioTokens, long numModelRequests, @Nullable String projectId, @Nullable String userId,
            @Nullable String apiKeyId, @Nullable String model, @Nullable Boolean batch) {

        static Result of(UsageTotals totals) {
            return new Result("organization.usage.completions.result", totals.inputTokens(), totals.outputTokens(),
                    totals.cachedTokens(), 0, 0, totals.modelRequests(), totals.projectId().orElse(null), null,
                    totals.apiKeyId().orElse(null), totals.model().orElse(null), totals.batch().orElse(null));
        }
    }
}
