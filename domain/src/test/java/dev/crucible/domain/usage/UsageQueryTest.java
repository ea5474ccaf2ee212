package dev.crucible.domain.usage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.tenancy.EntityName;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The usage query's cross-parameter rules, bucket alignment, and the sums' arithmetic. */
class UsageQueryTest {

    private static final EntityName ALICE = new EntityName("alice");

    private static Outcome<UsageQuery> of(long start, OptionalLong end, BucketWidth width, OptionalLong limit) {
        return UsageQuery.of(ALICE, start, end, width, Set.of(), Set.of(), Set.of(), Set.of(), Optional.empty(), limit,
                OptionalLong.empty());
    }

    private static String refusedParam(Outcome<UsageQuery> outcome) {
        return assertInstanceOf(Outcome.Refused.class, outcome).refusal().param();
    }

    @Test
    void limitDefaultsAndBoundsFollowTheWidth() {
        assertEquals(60, ((Outcome.Done<UsageQuery>) of(0, OptionalLong.empty(), BucketWidth.MINUTE,
                OptionalLong.empty())).value().limit());
        assertEquals(24, ((Outcome.Done<UsageQuery>) of(0, OptionalLong.empty(), BucketWidth.HOUR,
                OptionalLong.empty())).value().limit());
        assertEquals(168, ((Outcome.Done<UsageQuery>) of(0, OptionalLong.empty(), BucketWidth.HOUR,
                OptionalLong.of(168))).value().limit());
        assertEquals("limit", refusedParam(of(0, OptionalLong.empty(), BucketWidth.DAY, OptionalLong.of(32))));
        assertEquals("limit", refusedParam(of(0, OptionalLong.empty(), BucketWidth.MINUTE, OptionalLong.of(0))));
    }

    @Test
    void timesMustBeInRangeAndEndAfterStart() {
        assertEquals("start_time", refusedParam(of(-1, OptionalLong.empty(), BucketWidth.DAY, OptionalLong.empty())));
        assertEquals("start_time", refusedParam(of(UsageQuery.MAX_TIME + 1, OptionalLong.empty(), BucketWidth.DAY,
                OptionalLong.empty())));
        assertEquals("end_time", refusedParam(of(10, OptionalLong.of(10), BucketWidth.DAY, OptionalLong.empty())));
        assertEquals("end_time", refusedParam(of(10, OptionalLong.of(UsageQuery.MAX_TIME + 1), BucketWidth.DAY,
                OptionalLong.empty())));
        assertInstanceOf(Outcome.Done.class, of(10, OptionalLong.of(11), BucketWidth.DAY, OptionalLong.empty()));
    }

    @Test
    void bucketsAreAlignedToUtcAndWidthsReadTheirWireNames() {
        assertEquals(86_400, BucketWidth.DAY.bucketOf(86_400 + 86_399));
        assertEquals(3_600, BucketWidth.HOUR.bucketOf(7_199));
        assertEquals(120, BucketWidth.MINUTE.bucketOf(179));
        assertEquals(Optional.of(BucketWidth.HOUR), BucketWidth.of("1h"));
        assertEquals(Optional.empty(), BucketWidth.of("1w"));
        assertEquals(Optional.of(UsageField.API_KEY_ID), UsageField.of("api_key_id"));
        assertEquals(Optional.empty(), UsageField.of("user_id"));
    }

    @Test
    void sumsAddAndCountsAreChecked() {
        UsageTotals a = new UsageTotals(Optional.of("alice/p"), Optional.empty(), Optional.empty(), Optional.empty(),
                1, 2, 0, 1);
        assertEquals(new UsageTotals(Optional.of("alice/p"), Optional.empty(), Optional.empty(), Optional.empty(),
                11, 22, 3, 3), a.plus(new UsageTotals(Optional.of("alice/p"), Optional.empty(), Optional.empty(),
                Optional.empty(), 10, 20, 3, 2)));
        assertThrows(IllegalArgumentException.class, () -> new CompletionUsage(ALICE, UsageProject.defaultOf(ALICE),
                "m", UUID.randomUUID(), Instant.EPOCH, 2, 1, 3));
        assertThrows(IllegalArgumentException.class, () -> new CompletionUsage(ALICE, UsageProject.defaultOf(ALICE),
                "m", UUID.randomUUID(), Instant.EPOCH, 2, -1, 0));
    }
}
