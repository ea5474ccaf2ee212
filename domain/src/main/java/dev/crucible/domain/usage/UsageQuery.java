package dev.crucible.domain.usage;

import dev.crucible.kernel.invariant.NonNull;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.tenancy.EntityName;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * A read of one entity's completion usage, OpenAI's usage API parameters as typed values. Times are Unix seconds;
 * buckets are whole and aligned to UTC ({@link BucketWidth}): the first is the one holding {@code startTime}, the
 * last the one holding {@code endTime - 1}.
 *
 * @param entity     whose usage: the caller's, never another's
 * @param startTime  the start of the range, inclusive, {@code >= 0}
 * @param endTime    the end of the range, exclusive and after {@code startTime}; empty for "now"
 * @param width      the buckets' width
 * @param groupBy    what each bucket's results are split by; empty for one total per bucket
 * @param projectIds only these projects ({@code <team>/<project>}); empty for all
 * @param models     only these models; empty for all
 * @param apiKeyIds  only these keys' ids; empty for all
 * @param batch      only batch ({@code true}) or only non-batch ({@code false}) usage; empty for both
 * @param limit      buckets per page, 1 to the width's maximum
 * @param page       the first bucket's start of this page (a previous page's {@code next_page}); empty for the first
 */
public record UsageQuery(EntityName entity, long startTime, OptionalLong endTime, BucketWidth width,
        Set<UsageField> groupBy, Set<String> projectIds, Set<String> models, Set<String> apiKeyIds,
        Optional<Boolean> batch, int limit, OptionalLong page) {

    /** The largest time accepted: 9999-12-31T23:59:59Z, so no bucket arithmetic overflows. */
    public static final long MAX_TIME = 253_402_300_799L;

    public UsageQuery {
        NonNull.components(UsageQuery.class, entity, endTime, width, groupBy, projectIds, models, apiKeyIds, batch,
                page);
        groupBy = Set.copyOf(groupBy);
        projectIds = Set.copyOf(projectIds);
        models = Set.copyOf(models);
        apiKeyIds = Set.copyOf(apiKeyIds);
        if (startTime < 0 || startTime > MAX_TIME) {
            throw new IllegalArgumentException("start_time out of range: " + startTime);
        }
        if (endTime.isPresent() && (endTime.getAsLong() <= startTime || endTime.getAsLong() > MAX_TIME)) {
            throw new IllegalArgumentException("end_time out of range: " + endTime.getAsLong());
        }
        if (limit < 1 || limit > width.maxLimit()) {
            throw new IllegalArgumentException("limit out of range: " + limit);
        }
    }

    /**
     * Checks the parameters against each other: times in range, {@code end_time} after {@code start_time},
     * {@code limit} within the width's bounds (its default when empty). Each refusal names its parameter.
     */
    public static Outcome<UsageQuery> of(EntityName entity, long startTime, OptionalLong endTime, BucketWidth width,
            Set<UsageField> groupBy, Set<String> projectIds, Set<String> models, Set<String> apiKeyIds,
            Optional<Boolean> batch, OptionalLong limit, OptionalLong page) {
        if (startTime < 0 || startTime > MAX_TIME) {
            return Outcome.refused(Refusal.invalid("start_time",
                    "start_time must be Unix seconds from 0 to " + MAX_TIME + ", got " + startTime));
        }
        if (endTime.isPresent() && (endTime.getAsLong() <= startTime || endTime.getAsLong() > MAX_TIME)) {
            return Outcome.refused(Refusal.invalid("end_time", "end_time must be after start_time (" + startTime
                    + ") and at most " + MAX_TIME + ", got " + endTime.getAsLong()));
        }
        long asked = limit.orElse(width.defaultLimit());
        if (asked < 1 || asked > width.maxLimit()) {
            return Outcome.refused(Refusal.invalid("limit", "limit must be from 1 to " + width.maxLimit()
                    + " for bucket_width " + width.wireName() + ", got " + asked));
        }
        return Outcome.done(new UsageQuery(entity, startTime, endTime, width, groupBy, projectIds, models, apiKeyIds,
                batch, (int) asked, page));
    }
}
