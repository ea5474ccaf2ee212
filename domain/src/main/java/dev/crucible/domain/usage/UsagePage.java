package dev.crucible.domain.usage;

import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * A page of usage buckets, in time order, every bucket of the page's span included (empty ones too).
 *
 * @param buckets  the page's buckets
 * @param nextPage the start of the next page's first bucket, when the range has more buckets
 */
public record UsagePage<T>(List<UsageBucket<T>> buckets, OptionalLong nextPage) {

    public UsagePage {
        buckets = List.copyOf(buckets);
        Objects.requireNonNull(nextPage, "nextPage");
    }
}
