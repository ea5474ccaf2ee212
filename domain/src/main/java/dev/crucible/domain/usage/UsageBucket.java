package dev.crucible.domain.usage;

import java.util.List;

/**
 * One time bucket of usage: {@code [startTime, endTime)} in Unix seconds, and its results (none when nothing was
 * used in it; one per group otherwise, ordered by the group's values).
 */
public record UsageBucket(long startTime, long endTime, List<UsageTotals> results) {

    public UsageBucket {
        results = List.copyOf(results);
    }
}
