package dev.crucible.adapters.http.usage;

import dev.crucible.domain.usage.TrainingTotals;
import dev.crucible.domain.usage.UsageBucket;
import dev.crucible.domain.usage.UsagePage;
import dev.crucible.domain.usage.UsageTotals;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.micronaut.serde.config.naming.SnakeCaseStrategy;
import java.util.List;
import java.util.function.Function;

/**
 * One page of usage on the wire, in OpenAI's usage API shape: time buckets, each with a result per group
 * ({@link Result} for completions, {@link TrainingResult} for training). Fields a query does not group by are
 * {@code null}, as OpenAI writes them; Crucible counts no audio tokens.
 */
@Serdeable(naming = SnakeCaseStrategy.class)
record UsagePageView<R>(String object, List<Bucket<R>> data, boolean hasMore, @Nullable String nextPage) {

    static <T, R> UsagePageView<R> of(UsagePage<T> page, Function<T, R> result) {
        return new UsagePageView<>("page", page.buckets().stream().map(bucket -> Bucket.of(bucket, result)).toList(),
                page.nextPage().isPresent(),
                page.nextPage().isPresent() ? UsageParams.nextPage(page.nextPage().getAsLong()) : null);
    }

    /** One time bucket, {@code [start_time, end_time)} in Unix seconds. */
    @Serdeable(naming = SnakeCaseStrategy.class)
    record Bucket<R>(String object, long startTime, long endTime, List<R> results) {

        static <T, R> Bucket<R> of(UsageBucket<T> bucket, Function<T, R> result) {
            return new Bucket<>("bucket", bucket.startTime(), bucket.endTime(),
                    bucket.results().stream().map(result).toList());
        }
    }

    /** One group's completion totals within a bucket. */
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

    /** One group's training totals within a bucket (Crucible's own result type; OpenAI has none for training). */
    @Serdeable(naming = SnakeCaseStrategy.class)
    record TrainingResult(String object, long trainedTokens, long forwardTokens, long numOperations,
            @Nullable String projectId, @Nullable String model, @Nullable String apiKeyId) {

        static TrainingResult of(TrainingTotals totals) {
            return new TrainingResult("organization.usage.training.result", totals.trainedTokens(),
                    totals.forwardTokens(), totals.numOperations(), totals.projectId().orElse(null),
                    totals.model().orElse(null), totals.apiKeyId().orElse(null));
        }
    }
}
