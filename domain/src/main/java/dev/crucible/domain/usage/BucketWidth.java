package dev.crucible.domain.usage;

import dev.crucible.kernel.wire.WireName;
import java.util.Optional;

/**
 * The width of a usage bucket, as OpenAI's usage API offers them, with its bounds on buckets per page (OpenAI's:
 * {@code 1m} 60 by default and at most 1440, {@code 1h} 24 and 168, {@code 1d} 7 and 31). Buckets are aligned to
 * UTC: a minute, hour or day starts at a multiple of its seconds since the epoch.
 */
public enum BucketWidth implements WireName {
    MINUTE("1m", 60, 60, 1440),
    HOUR("1h", 3_600, 24, 168),
    DAY("1d", 86_400, 7, 31);

    private final String wireName;
    private final long seconds;
    private final int defaultLimit;
    private final int maxLimit;

    BucketWidth(String wireName, long seconds, int defaultLimit, int maxLimit) {
        this.wireName = wireName;
        this.seconds = seconds;
        this.defaultLimit = defaultLimit;
        this.maxLimit = maxLimit;
    }

    /** The width written {@code text} ({@code 1m}, {@code 1h}, {@code 1d}), if it is one. */
    public static Optional<BucketWidth> of(String text) {
        return WireName.find(values(), text);
    }

    @Override
    public String wireName() {
        return wireName;
    }

    public long seconds() {
        return seconds;
    }

    public int defaultLimit() {
        return defaultLimit;
    }

    public int maxLimit() {
        return maxLimit;
    }

    /** The start of the bucket holding {@code epochSecond}. */
    public long bucketOf(long epochSecond) {
        return Math.floorDiv(epochSecond, seconds) * seconds;
    }
}
